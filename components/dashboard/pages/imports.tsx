// The bulk import page: the account's tier and what it allows, the quota in use in this plane, and the
// recent jobs with their progress (kept current while one runs) and per-user errors; a queued or
// running job can be cancelled here as over the API.
import Link from "next/link";
import type { DashboardContext } from "@/lib/dashboard/context";
import type { DashboardImportJob, ImportsOverview } from "@/lib/dashboard/imports";
import { ActionForm } from "../action-form";
import { count, utcTime } from "../format";
import { LiveRefresh } from "../live-refresh";
import { PlaneTabs } from "../plane-tabs";
import { DashboardShell, Section } from "../shell";
import type { DashboardActions, FormAction } from "./actions";

const TIER_NAMES = { free: "Free", pro: "Pro", scale: "Scale", enterprise: "Enterprise" } as const;

const STATUS: Readonly<Record<DashboardImportJob["status"], { label: string; tone: string }>> = {
  queued: { label: "Queued", tone: "bg-slate-100 text-slate-700" },
  running: { label: "Running", tone: "bg-sky-100 text-sky-800" },
  completed: { label: "Completed", tone: "bg-emerald-100 text-emerald-800" },
  failed: { label: "Failed", tone: "bg-red-100 text-red-800" },
  cancelled: { label: "Cancelled", tone: "bg-amber-100 text-amber-900" },
};

/**
 * A bar for a share of a whole, named for assistive technology by `label` and `text`: a job's progress
 * (`progressbar`), or how much of a quota is used (`meter`). A value past the whole (a quota lowered
 * below what is held) fills the bar and makes the whole that value, so the figures stay valid.
 */
function Meter({
  value,
  max,
  label,
  text,
  tone = "bg-brand-600",
  role = "progressbar",
}: {
  value: number;
  max: number;
  label: string;
  text: string;
  tone?: string;
  role?: "progressbar" | "meter";
}) {
  const whole = Math.max(max, value);
  const share = whole > 0 ? value / whole : 0;
  return (
    <div
      role={role}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={whole}
      aria-valuenow={value}
      aria-valuetext={text}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
    >
      <div className={`h-full rounded-full ${tone} transition-[width] duration-500`} style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}

function Job({ job, developer, cancel }: { job: DashboardImportJob; developer: string; cancel: FormAction }) {
  const p = job.progress;
  const done = p.profiles_imported + p.profiles_failed + p.profiles_cancelled;
  const moving = job.status === "queued" || job.status === "running";
  const status = STATUS[job.status];
  // A cancelled job's bar shows the users it reached, not those it gave up.
  const reached = job.status === "cancelled" ? p.profiles_imported + p.profiles_failed : done;
  const progressText =
    job.status === "cancelled" && p.profiles_cancelled > 0
      ? `${count(p.profiles_imported)} of ${count(job.accepted_profiles)} users imported, then cancelled`
      : `${count(done)} of ${count(job.accepted_profiles)} users done`;
  return (
    <li className="py-4" data-testid="import-job" data-job-id={job.id} data-status={job.status}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status.tone}`} data-testid="import-job-status">
          {status.label}
          {moving && job.cancel_requested && " · stopping"}
        </span>
        <span className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900">{job.id}</span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {job.agent.displayName} ({job.agent.handle}) · submitted <time dateTime={job.created_at}>{utcTime(job.created_at)}</time>
        {job.finished_at && (
          <>
            {" · ended "}
            <time dateTime={job.finished_at}>{utcTime(job.finished_at)}</time>
          </>
        )}
      </p>
      <div className="mt-3">
        <div className="mb-1 flex justify-between gap-3 text-sm">
          <span className="font-semibold text-slate-900" data-testid="import-job-progress">
            {progressText}
          </span>
          <span className="shrink-0 text-slate-600 tabular-nums">{job.accepted_profiles ? Math.floor((reached / job.accepted_profiles) * 100) : 100} %</span>
        </div>
        <Meter
          value={reached}
          max={job.accepted_profiles}
          label={`Progress of ${job.id}`}
          text={progressText}
          tone={job.status === "failed" ? "bg-red-500" : job.status === "cancelled" ? "bg-amber-500" : "bg-brand-600"}
        />
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        {(
          [
            ["Imported", count(p.profiles_imported)],
            ["Failed", count(p.profiles_failed)],
            ["Cancelled", count(p.profiles_cancelled)],
            ["Waiting", count(p.profiles_pending)],
            ["Messages read", `${count(p.messages_processed)} of about ${count(job.estimated_message_count)}`],
            ["Memories written", count(p.memories_written)],
          ] as const
        ).map(([term, value]) => (
          <div key={term} className="flex justify-between gap-2 sm:block">
            <dt className="shrink-0 text-slate-600">{term}</dt>
            <dd className="text-right font-semibold text-slate-900 tabular-nums sm:text-left">{value}</dd>
          </div>
        ))}
      </dl>
      {job.error && <p className="mt-2 text-sm text-red-800">{job.error}</p>}
      {job.errors.length > 0 && (
        <details className="mt-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">
            Users not imported ({count(p.profiles_failed)}
            {p.profiles_failed > job.errors.length ? `, the first ${job.errors.length} shown` : ""})
          </summary>
          <ul className="mt-2 space-y-1 text-sm">
            {job.errors.map((e) => (
              <li key={e.external_id} className="break-all">
                <span className="font-mono">{e.external_id}</span> · <span className="font-mono text-slate-700">{e.code}</span>
                {e.message && <span className="text-slate-600"> · {e.message}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {/* The form stays while the job stops, so the answer to Cancel stays on the page. */}
      {moving && (
        <ActionForm
          action={cancel}
          hidden={{ developer, job: job.id }}
          submit={
            job.cancel_requested ? (
              "Stopping…"
            ) : (
              <>
                Cancel job<span className="sr-only"> {job.id}</span>
              </>
            )
          }
          pendingLabel="Cancelling…"
          tone="danger"
          layout="inline"
          className="mt-3"
          disabled={job.cancel_requested}
        />
      )}
    </li>
  );
}

export function ImportsPage({ ctx, data, actions, live = true }: { ctx: DashboardContext; data: ImportsOverview; actions: DashboardActions; live?: boolean }) {
  const { cancelImportJobAction, signOutAction, switchAccountAction } = actions;
  const { plane, tier, limits, profilesUsed, activeJobs, jobs } = data;
  const developer = ctx.account.developerId;
  const moving = jobs.some((j) => j.status === "queued" || j.status === "running");
  return (
    <DashboardShell
      ctx={ctx}
      current="imports"
      title="Bulk import"
      intro={
        <p>
          Jobs your servers submit with <span className="font-mono text-sm">POST /v1/import/profiles</span>: each imports users&rsquo; assistant conversations into their profiles,
          a few users at a time.
        </p>
      }
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <PlaneTabs current={plane} hrefOf={(p) => `/dashboard/imports?plane=${p}`} label="Plane of the import jobs" />
      <Section id="tier" title={`${TIER_NAMES[tier]} tier`} description="The tier is set by the service’s operators; ask them for a larger one.">
        <div className="space-y-2" data-testid="import-quota">
          <div className="flex justify-between text-sm">
            <span className="font-semibold text-slate-900">Imported profiles ({plane})</span>
            <span className="text-slate-700 tabular-nums">
              {limits.uniqueProfiles === null ? `${count(profilesUsed)} · no limit` : `${count(profilesUsed)} of ${count(limits.uniqueProfiles)}`}
            </span>
          </div>
          {limits.uniqueProfiles !== null && (
            <Meter
              role="meter"
              value={profilesUsed}
              max={limits.uniqueProfiles}
              label="Imported profiles used"
              text={`${count(profilesUsed)} of ${count(limits.uniqueProfiles)} imported profiles used`}
              tone={profilesUsed >= limits.uniqueProfiles ? "bg-red-500" : "bg-brand-600"}
            />
          )}
        </div>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-600">Users per job</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{count(limits.profilesPerJob)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Input characters per job</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{count(limits.inputCharsPerJob)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Jobs at once</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">
              {count(activeJobs)} of {count(limits.concurrentJobs)} in use
              <span className="block text-xs font-normal text-slate-600">queued or running</span>
            </dd>
          </div>
        </dl>
      </Section>
      <Section id="jobs" title="Recent jobs" description={`Newest first, in the ${plane} plane.`}>
        {live && <LiveRefresh active={moving} />}
        {jobs.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="imports-empty">
            No {plane} import jobs yet. Submit one with a {plane === "live" ? "live" : "test"} secret key:{" "}
            <Link href="/docs/api#postV1ImportProfiles" className="font-semibold text-brand-700 underline underline-offset-2">
              POST /v1/import/profiles
            </Link>
            .
          </p>
        ) : (
          <ol className="divide-y divide-slate-200" aria-label={`Import jobs in the ${plane} plane`}>
            {jobs.map((job) => (
              <Job key={job.id} job={job} developer={developer} cancel={cancelImportJobAction} />
            ))}
          </ol>
        )}
      </Section>
    </DashboardShell>
  );
}
