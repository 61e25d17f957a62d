// Site header for the service's own pages: skip link, wordmark and primary navigation.
import Link from "next/link";
import { PhoneMenu } from "@/components/site/phone-menu";

export type SiteSection = "home" | "docs";

/** Every destination, in a row from the sm breakpoint up and behind the Menu button on a phone. */
const NAV: { href: string; label: string; section?: SiteSection }[] = [
  { href: "/", label: "Overview", section: "home" },
  { href: "/docs", label: "Docs", section: "docs" },
  { href: "/#sandbox", label: "Sandbox" },
  { href: "/account", label: "Account" },
  // Developers sign in to their dashboard here.
  { href: "/dashboard", label: "Dashboard" },
];

/** The mark from public/logo.svg, inlined so the header needs no extra request. */
export function LogoMark({ className = "size-7" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#4338ca" />
      <circle cx="16" cy="12.5" r="5" fill="#fff" />
      <path d="M7 26c1.6-4.6 5-7 9-7s7.4 2.4 9 7" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

/** `current` marks the page the visitor is on (aria-current) — the header stays a server component. */
export function SiteHeader({ current }: { current: SiteSection }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <a
        href="#main"
        className="sr-only rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-lg focus:not-sr-only focus:absolute focus:px-4 focus:py-2 focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link href="/" className="-mx-1 flex items-center gap-2.5 rounded-md px-1 py-1 font-semibold tracking-tight text-slate-900">
          <LogoMark />
          <span>Profile Service</span>
        </Link>
        <nav aria-label="Primary">
          <ul className="hidden items-center gap-1 text-sm font-medium sm:flex">
            {NAV.map((item) => (
              <li key={item.href}>
                <NavLink item={item} current={current} className="inline-flex min-h-10 items-center rounded-md px-3" />
              </li>
            ))}
          </ul>
          <PhoneMenu>
            <ul className="space-y-1 text-base font-medium">
              {NAV.map((item) => (
                <li key={item.href}>
                  <NavLink item={item} current={current} className="flex min-h-11 items-center rounded-md px-3" />
                </li>
              ))}
            </ul>
          </PhoneMenu>
        </nav>
      </div>
    </header>
  );
}

function NavLink({ item, current, className }: { item: (typeof NAV)[number]; current: SiteSection; className: string }) {
  const active = item.section === current;
  return (
    <Link
      href={item.href}
      aria-current={active ? "page" : undefined}
      className={`${className} transition-colors ${active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
    >
      {item.label}
    </Link>
  );
}
