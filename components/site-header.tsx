// Site header for the service's own pages: skip link, wordmark and primary navigation.
import Link from "next/link";

export type SiteSection = "home" | "docs";

/** `wide`: shown from the sm breakpoint up; a phone's header keeps the mark, Docs, Account and Dashboard. */
const NAV: { href: string; label: string; section?: SiteSection; wide?: true }[] = [
  { href: "/", label: "Overview", section: "home", wide: true },
  { href: "/docs", label: "Docs", section: "docs" },
  { href: "/#sandbox", label: "Sandbox", wide: true },
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
          {/* On a phone the mark stands alone, so the navigation fits beside it. */}
          <span className="max-sm:sr-only">Profile Service</span>
        </Link>
        <nav aria-label="Primary">
          <ul className="flex items-center gap-1 text-sm font-medium">
            {NAV.map((item) => {
              const active = item.section === current;
              return (
                <li key={item.href} className={item.wide ? "hidden sm:block" : undefined}>
                  <Link
                    href={item.href}
                    aria-current={active ? "page" : undefined}
                    className={
                      "inline-flex min-h-10 items-center rounded-md px-3 transition-colors " +
                      (active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900")
                    }
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
    </header>
  );
}
