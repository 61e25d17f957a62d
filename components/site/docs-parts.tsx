// The pieces every docs page is made of: sections, paragraphs, inline code, code blocks, callouts and
// tables that turn into lists on phones.
import { CopyButton } from "@/components/copy-button";

/** A docs page's body: the "On this page" list of its sections beside (on phones, above) the article. */
export function DocsBody({ sections, children }: { sections: readonly { id: string; title: string }[]; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-14 lg:px-8">
      <nav aria-label="On this page" className="mb-10 lg:mb-0">
        <div className="rounded-xl border border-slate-200 p-4 lg:sticky lg:top-24 lg:border-0 lg:p-0">
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">On this page</p>
          <ol className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-1">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="-mx-2 block rounded-md px-2 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900">
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </div>
      </nav>
      <article className="min-w-0 max-w-3xl space-y-14">{children}</article>
    </div>
  );
}

export const LINK = "font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900";

export function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 space-y-5">
      <h2 id={`${id}-title`} className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function P({ children }: { children: React.ReactNode }) {
  return <p className="text-base leading-7 text-slate-700">{children}</p>;
}

export function Code({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] whitespace-nowrap text-slate-800 ring-1 ring-slate-200 ring-inset">{children}</code>;
}

/** Long lines scroll sideways inside the block; the page itself never does. */
export function CodeBlock({ label, code, testId }: { label: string; code: string; testId?: string }) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg bg-slate-900">
      <figcaption className="flex items-center justify-between gap-3 border-b border-white/10 py-1 pr-2 pl-4 text-xs text-slate-300">
        <span>{label}</span>
        <CopyButton look="code" text={code} label={label} />
      </figcaption>
      <pre tabIndex={0} aria-label={label} data-testid={testId} className="overflow-x-auto px-4 py-3.5 font-mono text-xs leading-6 text-slate-100 sm:text-[0.8125rem]">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

export function Callout({ status, title, children }: { status: number; title: string; children: React.ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5">
      <p className="flex items-center gap-2.5">
        <span className="rounded-md bg-slate-900 px-2 py-0.5 font-mono text-sm font-semibold text-white">{status}</span>
        <span className="font-semibold text-slate-900">{title}</span>
      </p>
      <p className="mt-2.5 text-sm leading-6 text-slate-600">{children}</p>
    </div>
  );
}

/**
 * A table from sm up. On phones, tables with long cells are shown as a list of rows instead (the table
 * is display:none there, so assistive technology meets one of the two); short tables stay tables.
 */
export function Table({
  caption,
  head,
  rows,
  stack = true,
  titleCells = 1,
}: {
  caption: string;
  head: string[];
  rows: React.ReactNode[][];
  /** Show rows as a list on phones. */
  stack?: boolean;
  /** How many leading cells form a row's title in the phone list. */
  titleCells?: number;
}) {
  return (
    <>
      {stack && (
        <ul aria-label={caption} className="divide-y divide-slate-200 rounded-xl border border-slate-200 sm:hidden">
          {rows.map((cells, i) => (
            <li key={i} className="px-4 py-3.5 text-sm">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium text-slate-900">
                {cells.slice(0, titleCells).map((cell, j) => (
                  <span key={j}>{cell}</span>
                ))}
              </p>
              <dl className="mt-1.5 space-y-1.5">
                {cells.slice(titleCells).map((cell, j) => (
                  <div key={j}>
                    <dt className={cells.length - titleCells === 1 ? "sr-only" : "text-xs font-medium text-slate-500"}>{head[j + titleCells]}</dt>
                    <dd className="leading-6 text-slate-700">{cell}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      )}
      <div tabIndex={0} role="region" aria-label={caption} className={"overflow-x-auto rounded-xl border border-slate-200 " + (stack ? "hidden sm:block" : "")}>
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {head.map((h) => (
                <th key={h} scope="col" className="border-b border-slate-200 px-3 py-2.5 font-semibold sm:px-4">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 text-slate-700">
            {rows.map((cells, i) => (
              <tr key={i} className="align-top">
                {cells.map((cell, j) => (
                  <td key={j} className={"px-3 py-3 leading-6 sm:px-4 " + (j === 0 ? "whitespace-nowrap text-slate-900" : "")}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
