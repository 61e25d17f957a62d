// Site footer for the service's own pages: where the reference lives and the health check.
import Link from "next/link";
import { LogoMark } from "./site-header";

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 text-sm sm:px-6 md:grid-cols-[1fr_auto] lg:px-8">
        <div className="max-w-md">
          <p className="flex items-center gap-2 font-semibold text-slate-900">
            <LogoMark className="size-5" />
            Profile Service
          </p>
          <p className="mt-3 leading-6 text-slate-600">
            Personalization profiles and OpenID Connect sign-in for AI agents. The full API reference is in the repository, under{" "}
            <code className="font-mono text-[0.8125rem] text-slate-800">docs/api.md</code>.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-10 gap-y-2 sm:flex sm:gap-6">
            <li>
              <Link href="/" className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline">
                Overview
              </Link>
            </li>
            <li>
              <Link href="/docs" className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline">
                Docs
              </Link>
            </li>
            <li>
              <Link href="/#sandbox" className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline">
                Sandbox
              </Link>
            </li>
            <li>
              {/* A plain anchor: the health check is a JSON route, not a page to prefetch. */}
              <a href="/api/health" className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline">
                Health
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
