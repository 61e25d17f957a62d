"use client";
// The site's navigation on a phone: a "Menu" button opening every destination the wide header shows.
// It is a <details> element, so it opens without JavaScript; with it, choosing a link, pressing Escape
// or moving to another page closes it (Escape returns the focus to the button).
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export function PhoneMenu({ children }: { children: React.ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  return (
    <details
      ref={menu}
      className="group sm:hidden"
      onClick={(e) => {
        // A link on this page (the sandbox, say) leaves the path as it is: close on the choice itself.
        if ((e.target as HTMLElement).closest("a") && menu.current) menu.current.open = false;
      }}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !menu.current?.open) return;
        menu.current.open = false;
        menu.current.querySelector("summary")?.focus();
      }}
    >
      <summary className="inline-flex min-h-10 cursor-pointer list-none items-center gap-2 rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 group-open:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          <path className="group-open:hidden" d="M3.5 6h13M3.5 10h13M3.5 14h13" />
          <path className="hidden group-open:block" d="M5 5l10 10M15 5L5 15" />
        </svg>
        Menu
      </summary>
      <div className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 pb-4 pt-2 shadow-lg">{children}</div>
    </details>
  );
}
