// The API reference (/docs/api), drawn from the OpenAPI document (lib/http/openapi.ts): every operation
// with its credentials, parameters, body fields and answers, grouped as the document tags them.

import type { OpenApiDocument, OpenApiOperation as Operation, OpenApiSchema as Schema } from "@/lib/http/openapi";

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  post: "bg-brand-50 text-brand-800 ring-brand-200",
  delete: "bg-red-50 text-red-800 ring-red-200",
};

/** A schema as one short type: string, integer, "a" | "b", array of object, … */
function typeOf(s: Schema | undefined): string {
  if (!s) return "any";
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(" | ");
  const type = Array.isArray(s.type) ? s.type.join(" | ") : s.type;
  if (type === "array") return `array of ${typeOf(s.items)}`;
  return type ?? "any";
}

function Fields({ schema, caption }: { schema: Schema; caption: string }) {
  const entries = Object.entries(schema.properties ?? {});
  if (!entries.length) return <p className="text-sm text-slate-600">{typeOf(schema)}</p>;
  const required = new Set(schema.required ?? []);
  return (
    <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full table-fixed text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Type
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map(([name, field]) => (
            <tr key={name}>
              <td className="px-3 py-2 align-top font-mono text-xs [overflow-wrap:anywhere] text-slate-900">
                {name}
                {required.has(name) ? "" : <span className="block font-sans text-slate-400">optional</span>}
              </td>
              <td className="px-3 py-2 align-top font-mono text-xs [overflow-wrap:anywhere] text-slate-700">{typeOf(field)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function credentials(op: Operation): string {
  if (!op.security.length) return "None: open to anyone.";
  if (op.security.some((s) => "clientBasic" in s)) return "The client: its id and secret by HTTP Basic or in the form, or (a public client) its client_id alone.";
  const withBearer = op.security.some((s) => "apiKey" in s && "bearer" in s);
  // Without the key-alone alternative the bearer token is the only way to name the person (the connector tools).
  if (withBearer && op.security.length === 1) return "X-API-Key, and the person as Authorization: Bearer (agent token or access token); X-User-Id is refused.";
  if (withBearer) return "X-API-Key, and the user as Authorization: Bearer (agent token or access token) or X-User-Id.";
  if (op.security.some((s) => "bearer" in s)) return "An access token as Authorization: Bearer.";
  return "X-API-Key.";
}

function OperationCard({ path, method, op }: { path: string; method: string; op: Operation }) {
  const body = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
  return (
    <section id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="scroll-mt-24 rounded-xl p-5 ring-1 ring-slate-200">
      <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-center gap-2 font-mono text-sm text-slate-900">
        <span className={`rounded px-1.5 py-0.5 text-xs font-bold uppercase ring-1 ${METHOD_STYLE[method] ?? "bg-slate-50 text-slate-700 ring-slate-200"}`}>{method}</span>
        <span className="break-all">{path}</span>
      </h3>
      <p className="mt-2 text-slate-700">{op.summary}</p>
      <dl className="mt-4 space-y-4 text-sm">
        <div>
          <dt className="font-semibold text-slate-900">Credentials</dt>
          <dd className="mt-1 text-slate-600">{credentials(op)}</dd>
        </div>
        {op.parameters?.length ? (
          <div>
            <dt className="font-semibold text-slate-900">Parameters</dt>
            <dd className="mt-1">
              <ul className="space-y-1">
                {op.parameters.map((p) => (
                  <li key={`${p.in}-${p.name}`} className="text-slate-600">
                    <code className="font-mono text-xs text-slate-900">{p.name}</code>{" "}
                    <span className="text-slate-400">
                      ({p.in}
                      {p.required ? ", required" : ""})
                    </span>{" "}
                    {typeOf(p.schema)}
                    {p.description ? `: ${p.description}` : ""}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
        {body ? (
          <div>
            <dt className="font-semibold text-slate-900">
              Body <span className="font-normal text-slate-500">({body[0]})</span>
            </dt>
            <dd className="mt-2">
              <Fields schema={body[1].schema} caption={`${method.toUpperCase()} ${path} body`} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt className="font-semibold text-slate-900">Answers</dt>
          <dd className="mt-2 space-y-3">
            {Object.entries(op.responses)
              .filter(([status]) => Number(status) < 400)
              .map(([status, r]) => {
                const schema = r.content?.["application/json"]?.schema;
                return (
                  <div key={status} className="space-y-2">
                    <p className="text-slate-600">
                      <span className="font-mono font-semibold text-slate-900">{status}</span> {r.description}
                      {schema ? "" : " (no JSON body)"}
                    </p>
                    {schema ? <Fields schema={schema} caption={`${method.toUpperCase()} ${path} answer ${status}`} /> : null}
                  </div>
                );
              })}
            <div className="text-slate-600">
              <p>Errors, {path.startsWith("/oauth/") ? "in RFC 6749’s shape ({ error, error_description }):" : "in the API’s shape ({ error: { code, message }, request_id }):"}</p>
              <ul className="mt-1 space-y-0.5">
                {Object.entries(op.responses)
                  .filter(([status, r]) => Number(status) >= 400 && r.content)
                  .map(([status, r]) => (
                    <li key={status} className="[overflow-wrap:anywhere]">
                      <span className="font-mono font-semibold text-slate-900">{status}</span> {r.description}
                    </li>
                  ))}
              </ul>
            </div>
          </dd>
        </div>
      </dl>
    </section>
  );
}

export function ApiReference({ document }: { document: OpenApiDocument }) {
  const groups = new Map<string, Array<{ path: string; method: string; op: Operation }>>();
  for (const [path, ops] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags[0] ?? "Service";
      groups.set(tag, [...(groups.get(tag) ?? []), { path, method, op }]);
    }
  }
  return (
    <div className="space-y-14">
      {[...groups].map(([tag, ops]) => (
        <section key={tag} aria-labelledby={`tag-${tag.replace(/\W+/g, "-")}`} className="space-y-5">
          <h2 id={`tag-${tag.replace(/\W+/g, "-")}`} className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">
            {tag}
          </h2>
          {ops.map((o) => (
            <OperationCard key={`${o.method} ${o.path}`} {...o} />
          ))}
        </section>
      ))}
    </div>
  );
}
