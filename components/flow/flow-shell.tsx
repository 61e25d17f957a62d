// The hosted flow's frame: the app's name at the top, the step's card, and the service's mark.
import { LogoMark } from "@/components/site-header";

export function FlowShell({ appName, children, title }: { appName: string; title: string; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-brand-50">
      <header className="mx-auto flex w-full max-w-md items-center gap-3 px-4 pt-6 sm:pt-10">
        <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white text-base font-semibold text-brand-700 shadow-sm ring-1 ring-slate-200">
          {appName.slice(0, 1).toUpperCase()}
        </span>
        <p className="min-w-0 text-sm text-slate-600">
          <span className="block truncate font-semibold text-slate-900">{appName}</span>
          uses Profile Service to sign you in
        </p>
      </header>
      <main id="main" className="mx-auto w-full max-w-md flex-1 px-4 py-6" aria-labelledby="flow-title">
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <h1 id="flow-title" className="text-xl font-semibold tracking-tight text-slate-900">
            {title}
          </h1>
          {children}
        </div>
      </main>
      <footer className="flex items-center justify-center gap-2 pb-6 text-xs text-slate-500">
        <LogoMark className="size-4" />
        Profile Service
      </footer>
    </div>
  );
}
