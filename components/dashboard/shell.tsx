// The developer dashboard's frame: the service's mark, the account shown (and a switcher when there
// are several), the signed-in address with Sign out, the sections' navigation, and the page's card.
import Link from "next/link";
import { LogoMark } from "@/components/site-header";
import type { DashboardContext } from "@/lib/dashboard/context";
import { DashboardNotices } from "./notices";
import { buttonStyles, inputStyle } from "./styles";
import { PageFooter } from "@/components/page-footer";

export type DashboardSection = "overview" | "keys" | "agents" | "origins" | "sso" | "sign-in-links" | "imports" | "webhooks" | "usage" | "requests" | "members";

const NAV: ReadonlyArray<{ section: DashboardSection; href: string; label: string }> = [
  { section: "overview", href: "/dashboard", label: "Overview" },
  { section: "keys", href: "/dashboard/keys", label: "API keys" },
  { section: "agents", href: "/dashboard/agents", label: "Agents" },
  { section: "origins", href: "/dashboard/origins", label: "Origins" },
  { section: "sso", href: "/dashboard/sso", label: "SSO clients" },
  { section: "sign-in-links", href: "/dashboard/sign-in-links", label: "Sign-in links" },
  { section: "imports", href: "/dashboard/imports", label: "Imports" },
  { section: "webhooks", href: "/dashboard/webhooks", label: "Webhooks" },
  { section: "usage", href: "/dashboard/usage", label: "Usage" },
  { section: "requests", href: "/dashboard/requests", label: "Request log" },
  { section: "members", href: "/dashboard/members", label: "Members" },
];

export function DashboardShell({
  ctx,
  current,
  title,
  intro,
  children,
  switchAction,
  signOutAction,
}: {
  ctx: DashboardContext;
  current: DashboardSection;
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  switchAction: (form: FormData) => Promise<void>;
  signOutAction: () => Promise<void>;
}) {
  const here = NAV.find((n) => n.section === current)!.href;
  return (
    <div className="flex min-h-dvh flex-col bg-brand-50">
      <a href="#main" className="sr-only rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex w-full max-w-4xl flex-wrap items-center gap-3 px-4 py-3">
          <Link href="/dashboard" className="flex items-center gap-2.5 rounded-md font-semibold tracking-tight text-slate-900">
            <LogoMark className="size-8 shrink-0" />
            <span className="leading-5">
              Profile Service
              <span className="block text-xs font-normal text-slate-500">Developer dashboard</span>
            </span>
          </Link>
          <div className="ml-auto flex items-center gap-2">
            <span className="hidden max-w-56 truncate text-sm text-slate-600 sm:inline" title={ctx.user.email}>
              {ctx.user.email}
            </span>
            <form action={signOutAction}>
              <button type="submit" className="min-h-10 rounded-lg px-3 text-sm font-semibold text-slate-600 hover:bg-slate-100 hover:text-slate-900">
                Sign out
              </button>
            </form>
          </div>
        </div>
        <div className="mx-auto flex w-full max-w-4xl flex-wrap items-end gap-3 px-4 pb-3">
          {ctx.memberships.length > 1 ? (
            <form action={switchAction} className="flex items-end gap-2">
              <input type="hidden" name="back" value={here} />
              <label className="block text-xs font-semibold text-slate-600">
                Account
                <select name="developer" defaultValue={ctx.account.developerId} className={`${inputStyle} mt-1 min-h-10 py-0 text-sm`}>
                  {ctx.memberships.map((m) => (
                    <option key={m.developerId} value={m.developerId}>
                      {m.name} ({m.role})
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" className={`${buttonStyles.secondary} min-h-10`}>
                Switch
              </button>
            </form>
          ) : (
            <p className="text-sm text-slate-600">
              Account{" "}
              <span className="font-semibold text-slate-900" data-testid="account-name">
                {ctx.account.name}
              </span>
              <span className="ml-1 text-slate-500">({ctx.account.role})</span>
            </p>
          )}
        </div>
        <nav aria-label="Dashboard" className="mx-auto w-full max-w-4xl px-2">
          <ul className="flex flex-wrap text-sm font-medium">
            {NAV.map((item) => {
              const active = item.section === current;
              return (
                <li key={item.section}>
                  <Link
                    href={item.href}
                    aria-current={active ? "page" : undefined}
                    className={`inline-flex min-h-11 items-center border-b-2 px-2 ${active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-4xl flex-1 px-4 py-6" aria-labelledby="page-title">
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-slate-900">
          {title}
        </h1>
        {intro && <div className="mt-2 text-slate-600">{intro}</div>}
        <DashboardNotices>
          <div className="mt-6 space-y-6">{children}</div>
        </DashboardNotices>
      </main>
      <PageFooter>Profile Service developer dashboard.</PageFooter>
    </div>
  );
}

/** The sign-in pages' frame: the hosted pages' single card, with the dashboard's name. */
export function DashboardAuthShell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-brand-50">
      <header className="mx-auto flex w-full max-w-lg items-center gap-3 px-4 pt-5 sm:pt-10">
        <LogoMark className="size-10 shrink-0" />
        <p className="min-w-0 flex-1 text-sm leading-5 text-slate-600">
          <span className="block font-semibold text-slate-900">Profile Service</span>
          Developer dashboard
        </p>
      </header>
      <main id="main" className="mx-auto w-full max-w-lg flex-1 px-4 py-5" aria-labelledby="page-title">
        <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-slate-900">
            {title}
          </h1>
          {children}
        </div>
      </main>
      <PageFooter>Keys, agents and sign-in settings for developers building on Profile Service.</PageFooter>
    </div>
  );
}

/** A section of a dashboard page: a white card with its heading. */
export function Section({ id, title, children, description }: { id: string; title: string; children: React.ReactNode; description?: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
