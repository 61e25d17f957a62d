// The client library's reference (/docs/client), drawn from packages/client/reference.json, which
// packages/client/scripts/generate-reference.ts reads from the package's exports and doc comments.
import type { Entry, ErrorRow, Reference } from "@/packages/client/scripts/generate-reference";

const KIND_LABEL: Record<Entry["kind"], string> = {
  class: "class",
  function: "function",
  constant: "constant",
  interface: "interface",
  type: "type",
  namespace: "namespace",
};

/** The anchor of an exported name. */
export const refAnchor = (name: string) => `ref-${name}`;

/** Doc comment text: `code` spans and {@link Name} links; everything else as written. */
export function DocText({ text, names }: { text: string; names: ReadonlySet<string> }) {
  const parts = text.split(/(`[^`]+`|\{@link [^}]+\})/g);
  return (
    <>
      {parts.map((part, i) => {
        if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
          return (
            <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
              {part.slice(1, -1)}
            </code>
          );
        }
        const link = part.match(/^\{@link ([^}]+)\}$/);
        if (link) {
          const name = link[1]!.trim();
          return names.has(name) ? (
            <a key={i} href={`#${refAnchor(name)}`} className="font-mono text-[0.9em] text-brand-700 underline underline-offset-4 hover:text-brand-900">
              {name}
            </a>
          ) : (
            <code key={i} className="font-mono text-[0.85em]">
              {name}
            </code>
          );
        }
        return part;
      })}
    </>
  );
}

function Signature({ text }: { text: string }) {
  return (
    <pre tabIndex={0} className="overflow-x-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-xs leading-6 text-slate-800 ring-1 ring-slate-200 sm:text-[0.8125rem]">
      <code>{text}</code>
    </pre>
  );
}

function EntryCard({ entry, names }: { entry: Entry; names: ReadonlySet<string> }) {
  return (
    <article id={refAnchor(entry.name)} aria-labelledby={`${refAnchor(entry.name)}-title`} className="scroll-mt-24 rounded-xl border border-slate-200 p-4 sm:p-5">
      <h3 id={`${refAnchor(entry.name)}-title`} className="flex flex-wrap items-baseline gap-x-2.5 gap-y-1">
        <span className="font-mono text-base font-semibold text-slate-900">{entry.name}</span>
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600">{KIND_LABEL[entry.kind]}</span>
      </h3>
      {entry.doc && (
        <p className="mt-2 text-sm leading-6 text-slate-700">
          <DocText text={entry.doc} names={names} />
        </p>
      )}
      {entry.kind !== "class" && entry.kind !== "interface" && (
        <div className="mt-3">
          <Signature text={entry.signature} />
        </div>
      )}
      {entry.members.length > 0 && (
        <dl className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
          {entry.members.map((member) => (
            <div key={member.name} id={`${refAnchor(entry.name)}.${member.name}`} className="scroll-mt-24 py-3">
              <dt>
                <Signature text={member.signature} />
              </dt>
              {member.doc && (
                <dd className="mt-1.5 text-sm leading-6 text-slate-700">
                  <DocText text={member.doc} names={names} />
                </dd>
              )}
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}

export function ErrorTable({ rows }: { rows: ErrorRow[] }) {
  return (
    <div tabIndex={0} role="region" aria-label="Error codes" className="overflow-x-auto rounded-xl border border-slate-200">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">Error codes</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {["Code", "When", "Retried", "Suggested action"].map((h) => (
              <th key={h} scope="col" className="border-b border-slate-200 px-3 py-2.5 font-semibold sm:px-4">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 align-top text-slate-700">
          {rows.map((row) => (
            <tr key={row.code} id={row.anchor} className="scroll-mt-24 target:bg-brand-50">
              <th scope="row" className="px-3 py-3 font-mono text-xs font-semibold whitespace-nowrap text-slate-900 sm:px-4">
                {row.code}
              </th>
              <td className="min-w-64 px-3 py-3 leading-6 sm:px-4">
                <DocText text={row.meaning} names={new Set()} />
                {row.wire.length > 0 && (
                  <p className="mt-1.5 text-xs leading-5 text-slate-500">
                    Service codes:{" "}
                    {row.wire.map((wire, i) => (
                      <span key={wire}>
                        <code className="font-mono text-slate-700">{wire}</code>
                        {i < row.wire.length - 1 ? ", " : ""}
                      </span>
                    ))}
                  </p>
                )}
              </td>
              <td className="px-3 py-3 sm:px-4">{row.retryable ? "yes" : "no"}</td>
              <td className="px-3 py-3 font-mono text-xs sm:px-4">{row.suggestedAction ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every section of the reference, each entry an article with its signature, doc and members. */
export function ClientReference({ reference }: { reference: Reference }) {
  const names: ReadonlySet<string> = new Set(reference.sections.flatMap((s) => s.entries.map((e) => e.name)));
  return (
    <div className="space-y-14">
      {reference.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24 space-y-5">
          <h2 id={`${section.id}-title`} className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">
            {section.title}
          </h2>
          {section.entries.map((entry) => (
            <EntryCard key={entry.name} entry={entry} names={names} />
          ))}
        </section>
      ))}
    </div>
  );
}
