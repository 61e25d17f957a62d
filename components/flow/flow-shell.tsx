// The hosted flow's frame: the app's name and mark at the top, where the person is in the steps,
// the step's card, and a way to cancel.
import { LogoMark } from "@/components/site-header";
import type { Screen } from "@/lib/flow/screens";
import { SERVICE_NAME } from "@/lib/flow/views";
import { PageFooter } from "@/components/page-footer";

export { SERVICE_NAME };

export const SCREEN_LABELS: Record<Screen, string> = {
  mailbox: "Mailbox",
  import: "Import",
  app: "App",
  apps: "Apps",
  capability: "Permission",
  phone: "Phone",
  code: "Code",
  receipt: "Done",
};

export function FlowShell({
  appName,
  developerName = null,
  title,
  children,
  steps,
  current,
  cancelAction,
  own = false,
  noSignIn = false,
}: {
  appName: string;
  /** The developer account behind the app, named beside it: app names are free and not unique. */
  developerName?: string | null;
  title: string;
  children: React.ReactNode;
  /** The screens in order, for the progress indication; none on pages outside the steps. */
  steps?: Screen[];
  current?: Screen;
  /** Where Cancel posts (the app then hears access_denied). */
  cancelAction?: string;
  /** The service's own page (its sign-up, the account page): its mark, never an app's name. */
  own?: boolean;
  /** A flow that signs no one in (a partner link's import-only flow): the app gets what is imported. */
  noSignIn?: boolean;
}) {
  const at = steps && current ? steps.indexOf(current) : -1;
  return (
    <div className="flex min-h-dvh flex-col bg-brand-50">
      <header className="mx-auto flex w-full max-w-lg items-center gap-3 px-4 pt-5 sm:pt-10">
        {own ? (
          <LogoMark className="size-10 shrink-0" />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white text-base font-bold text-brand-700 shadow-sm ring-1 ring-slate-200"
          >
            {appName.slice(0, 1).toUpperCase()}
          </span>
        )}
        <p className="min-w-0 flex-1 text-sm leading-5 text-slate-600">
          <span className="block font-semibold text-slate-900 [overflow-wrap:anywhere]">
            <span>{appName}</span>
            {developerName && <span className="font-normal text-slate-600"> by {developerName}</span>}
          </span>
          {own ? "Your profile for AI apps" : noSignIn ? "gets your profile through Profile Service" : "signs you in with Profile Service"}
        </p>
        {cancelAction && (
          <form method="post" action={cancelAction}>
            <button type="submit" className="min-h-10 rounded-lg px-3 text-sm font-semibold text-slate-600 hover:bg-white hover:text-slate-900">
              Cancel
            </button>
          </form>
        )}
      </header>
      {steps && at >= 0 && (
        <nav aria-label="Progress" className="mx-auto mt-5 w-full max-w-lg px-4">
          <p className="sr-only">
            Step {at + 1} of {steps.length}: {SCREEN_LABELS[current!]}
          </p>
          <ol className="flex gap-1.5" aria-hidden="true">
            {steps.map((s, i) => (
              <li key={`${s}-${i}`} className="flex-1">
                <span className={`block h-1.5 rounded-full ${i <= at ? "bg-brand-600" : "bg-slate-300/70"}`} />
                <span className={`mt-1.5 hidden text-xs sm:block ${i === at ? "font-semibold text-brand-700" : "text-slate-600"}`}>{SCREEN_LABELS[s]}</span>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <main id="main" className="mx-auto w-full max-w-lg flex-1 px-4 py-5" aria-labelledby="flow-title">
        <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <h1 id="flow-title" className="text-2xl font-semibold tracking-tight text-slate-900">
            {title}
          </h1>
          {children}
        </div>
      </main>
      <PageFooter>Profile Service keeps your profile. You choose which apps use it.</PageFooter>
    </div>
  );
}
