// The head of a docs page: the section label, the page's one h1, its lead paragraph, and the docs' pages.
import Link from "next/link";

export type DocsPage = "getting-started" | "conventions" | "api" | "client" | "mcp-sessions" | "webhooks";

const PAGES: { id: DocsPage; href: string; label: string }[] = [
  { id: "getting-started", href: "/docs/getting-started", label: "Getting started" },
  { id: "conventions", href: "/docs", label: "Conventions" },
  { id: "api", href: "/docs/api", label: "API reference" },
  { id: "client", href: "/docs/client", label: "Client library" },
  { id: "mcp-sessions", href: "/docs/mcp-sessions", label: "MCP sessions" },
  { id: "webhooks", href: "/docs/webhooks", label: "Webhooks" },
];

export function DocsHero({ title, width, current, children }: { title: string; width: "max-w-4xl" | "max-w-6xl"; current: DocsPage; children: React.ReactNode }) {
  return (
    <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50/70 to-white">
      <div className={`mx-auto ${width} px-4 pt-12 pb-6 sm:px-6 sm:pt-16 lg:px-8`}>
        <p className="text-sm font-semibold text-brand-700">Docs</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        <p className="mt-4 max-w-2xl text-lg leading-8 text-pretty text-slate-600">{children}</p>
        <nav aria-label="Docs pages" className="-mx-1 mt-8">
          <ul className="flex flex-wrap gap-1 text-sm font-medium whitespace-nowrap">
            {PAGES.map((page) => (
              <li key={page.id}>
                <Link
                  href={page.href}
                  aria-current={page.id === current ? "page" : undefined}
                  className={
                    "inline-flex min-h-10 items-center rounded-md px-3 transition-colors " +
                    (page.id === current ? "bg-white text-brand-700 shadow-sm ring-1 ring-slate-200" : "text-slate-600 hover:bg-white/70 hover:text-slate-900")
                  }
                >
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  );
}
