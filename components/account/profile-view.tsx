// The account page's view of the person's profile exactly as agents read it (GET /v1/profile): the
// identity claims and facts, the preferences and the summary, with the way to every memory.
import type { AccountProfile } from "@/lib/account/profile";

const CLAIM_LABELS: Readonly<Record<string, string>> = {
  name: "Name",
  given_name: "Given name",
  family_name: "Family name",
  birthdate: "Birthday",
  location: "Location",
  email: "Email",
};

/** The parts of the profile the page shows. */
export type ProfileShown = Pick<AccountProfile, "identity" | "preferences" | "summary">;

export function ProfileView({ profile }: { profile: ProfileShown }) {
  const identity = (profile.identity ?? {}) as Record<string, unknown> & { facts?: string[] };
  const claims = Object.entries(CLAIM_LABELS).flatMap(([key, label]) => (typeof identity[key] === "string" && identity[key] ? [{ label, value: identity[key] }] : []));
  const facts = identity.facts ?? [];
  const preferences = profile.preferences ?? [];
  const empty = !claims.length && !facts.length && !preferences.length && !profile.summary;
  return (
    <section aria-labelledby="profile-title" className="mt-6">
      <h2 id="profile-title" className="font-semibold text-slate-900">
        Your profile as agents see it
      </h2>
      <p className="mt-1 text-sm text-slate-600">What every agent you approved reads, composed from your memories.</p>
      {empty ? (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">Nothing yet. What you import and what agents learn shows here.</p>
      ) : (
        <div className="mt-3 space-y-4 rounded-xl bg-white px-4 py-3 ring-1 ring-slate-200">
          {(claims.length > 0 || facts.length > 0) && (
            <div>
              <h3 className="text-sm font-semibold text-slate-700">Identity</h3>
              {claims.length > 0 && (
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  {claims.map((c) => (
                    <div key={c.label} className="contents">
                      <dt className="text-slate-500">{c.label}</dt>
                      <dd className="text-slate-900 [overflow-wrap:anywhere]">{c.value}</dd>
                    </div>
                  ))}
                </dl>
              )}
              {facts.length > 0 && (
                <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-800" aria-label="Identity facts">
                  {facts.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          {preferences.length > 0 && (
            <div>
              <h3 className="text-sm font-semibold text-slate-700">Preferences</h3>
              <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-800" aria-label="Preferences">
                {preferences.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
          {profile.summary && (
            <div>
              <h3 className="text-sm font-semibold text-slate-700">Summary</h3>
              <p className="mt-1 text-sm text-slate-800">{profile.summary}</p>
            </div>
          )}
        </div>
      )}
      <a href="/account/memories" className="mt-3 inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50">
        See and edit your memories
      </a>
    </section>
  );
}
