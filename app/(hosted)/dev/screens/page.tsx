// /dev/screens — the hosted flow's screen gallery: every screen in each of its states, from fixtures,
// for the people who change them. e2e/screens.spec.ts screenshots each at four widths against baselines.
import type { Metadata } from "next";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { GALLERY_STATES } from "@/lib/flow/gallery";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Screen gallery", robots: { index: false } };

export default function GalleryPage() {
  const byScreen = new Map<string, string[]>();
  for (const [name, view] of Object.entries(GALLERY_STATES)) byScreen.set(view.screen, [...(byScreen.get(view.screen) ?? []), name]);
  return (
    <FlowShell own appName={SERVICE_NAME} title="Screen gallery">
      <p className="mt-3 text-slate-600">Every screen of the hosted flow in each of its states, drawn from fixtures: no database, no flow. Forms here change nothing.</p>
      {[...byScreen].map(([screen, names]) => (
        <section key={screen} aria-labelledby={`gallery-${screen}`} className="mt-6">
          <h2 id={`gallery-${screen}`} className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            {screen}
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2">
            {names.map((name) => (
              <li key={name}>
                <a href={`/dev/screens/${name}`} className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-200 hover:bg-brand-50" data-testid="gallery-state">
                  {name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </FlowShell>
  );
}
