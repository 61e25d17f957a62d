// /dev/screens — the screen gallery: every hosted flow screen in each of its states, the person's pages
// and the developer dashboard, from fixtures, for the people who change them. e2e/screens.spec.ts
// screenshots each at four widths against baselines.
import type { Metadata } from "next";
import { ACCOUNT_GALLERY } from "@/components/account/gallery";
import { DASHBOARD_GALLERY } from "@/components/dashboard/gallery";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { GALLERY_STATES } from "@/lib/flow/gallery";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Screen gallery", robots: { index: false } };

function StateLinks({ names }: { names: string[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-2">
      {names.map((name) => (
        <li key={name}>
          <a
            href={`/dev/screens/${name}`}
            className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-200 hover:bg-brand-50"
            data-testid="gallery-state"
          >
            {name}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Group({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`gallery-${id}`} className="mt-8">
      <h2 id={`gallery-${id}`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function GalleryPage() {
  const byScreen = new Map<string, string[]>();
  for (const [name, view] of Object.entries(GALLERY_STATES)) byScreen.set(view.screen, [...(byScreen.get(view.screen) ?? []), name]);
  return (
    <FlowShell own appName={SERVICE_NAME} title="Screen gallery">
      <p className="mt-3 text-slate-600">
        Every screen of the hosted flow in each of its states, the person&rsquo;s pages and the developer dashboard, drawn from fixtures: no database, no flow. Forms here change
        nothing.
      </p>
      <Group id="flow" title="Flow">
        {[...byScreen].map(([screen, names]) => (
          <section key={screen} aria-labelledby={`gallery-${screen}`} className="mt-4">
            <h3 id={`gallery-${screen}`} className="text-sm font-semibold uppercase tracking-wide text-slate-500">
              {screen}
            </h3>
            <StateLinks names={names} />
          </section>
        ))}
      </Group>
      <Group id="account" title="Person's pages">
        <StateLinks names={Object.keys(ACCOUNT_GALLERY)} />
      </Group>
      <Group id="dashboard" title="Dashboard">
        <StateLinks names={Object.keys(DASHBOARD_GALLERY)} />
      </Group>
    </FlowShell>
  );
}
