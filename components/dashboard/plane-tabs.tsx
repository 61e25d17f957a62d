// The live/test switch of a dashboard page that shows one plane at a time: two links, the current one
// marked for assistive technology (aria-current="true": a choice within the page, not the page) and by its look; the rest of the query string is the
// page's to give (each tab's href).
import Link from "next/link";
import type { Plane } from "@/lib/platform/db/generated/enums";

export function PlaneTabs({ current, hrefOf, label = "Plane" }: { current: Plane; hrefOf: (plane: Plane) => string; label?: string }) {
  return (
    <nav aria-label={label}>
      <ul className="inline-flex rounded-xl bg-white p-1 shadow-sm ring-1 ring-slate-200">
        {(["live", "test"] as const).map((plane) => {
          const active = plane === current;
          return (
            <li key={plane}>
              <Link
                href={hrefOf(plane)}
                aria-current={active ? "true" : undefined}
                className={`inline-flex min-h-10 items-center rounded-lg px-4 text-sm font-semibold ${active ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {plane === "live" ? "Live" : "Test"}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
