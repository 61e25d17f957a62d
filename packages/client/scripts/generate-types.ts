// Writes src/generated/openapi.ts: TypeScript types for every /v1 JSON operation of the service's
// OpenAPI document, read from its JSON Schemas. `renderTypes` is pure, so a test can compare the
// checked-in file with what the current document gives.
//
//   npm run generate -w @profile-service/client                 (the document this repository builds)
//   tsx packages/client/scripts/generate-types.ts <file | URL>  (a saved document, or a running service's /openapi.json)
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The JSON Schema keywords the generators read (the Python library's generator too). */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  prefixItems?: Schema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  description?: string;
  [keyword: string]: unknown;
};
export type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
export type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
export type OpenApiInput = { paths: Record<string, Record<string, Operation>> };

export const GENERATED_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/generated/openapi.ts");

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** The operations' methods, in the order the generated files list them. */
export const METHODS = ["get", "post", "put", "patch", "delete"];

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes("unknown")) return "unknown";
  return unique.join(" | ");
}

function wrap(t: string): string {
  return /[|&]/.test(t) && !t.startsWith("{") ? `(${t})` : t;
}

function comment(text: string | undefined, pad: string): string {
  if (!text) return "";
  return `${pad}/** ${text.replace(/\*\//g, "*\\/").replace(/\s*\n\s*/g, " ")} */\n`;
}

function objectType(s: Schema, indent: number): string {
  const pad = "  ".repeat(indent + 1);
  const required = new Set(s.required ?? []);
  const props = Object.entries(s.properties ?? {});
  const lines = props.map(([name, prop]) => {
    const key = IDENTIFIER.test(name) ? name : literal(name);
    return `${comment(prop.description, pad)}${pad}${key}${required.has(name) ? "" : "?"}: ${tsType(prop, indent + 1)};`;
  });
  const extra = s.additionalProperties;
  if (extra && typeof extra === "object" && Object.keys(extra).length) {
    lines.push(`${pad}[key: string]: ${props.length ? "unknown" : tsType(extra, indent + 1)};`);
  } else if (extra === true || (extra === undefined && props.length === 0) || (extra && typeof extra === "object")) {
    lines.push(`${pad}[key: string]: unknown;`);
  }
  return lines.length ? `{\n${lines.join("\n")}\n${"  ".repeat(indent)}}` : "Record<string, never>";
}

function singleType(type: string, s: Schema, indent: number): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      if (s.prefixItems) return `[${s.prefixItems.map((i) => tsType(i, indent)).join(", ")}]`;
      return `Array<${s.items ? tsType(s.items, indent) : "unknown"}>`;
    case "object":
      return objectType(s, indent);
    default:
      return "unknown";
  }
}

/** The TypeScript type a JSON Schema (2020-12) describes, for the keywords the document uses. */
export function tsType(s: Schema | boolean | undefined, indent = 0): string {
  if (s === undefined || s === true || (typeof s === "object" && Object.keys(s).length === 0)) return "unknown";
  if (s === false) return "never";
  if ("const" in s) return literal(s.const);
  if (s.enum) return union(s.enum.map(literal));
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return union(alternatives.map((a) => tsType(a, indent)));
  if (s.allOf) return s.allOf.map((a) => wrap(tsType(a, indent))).join(" & ");
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ["object"] : [];
  if (!types.length) return "unknown";
  return union(types.map((t) => singleType(t, s, indent)));
}

function typeName(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/** The JSON Schema of a request or answer body. */
export function jsonSchema(content: Record<string, { schema?: Schema }> | undefined): Schema | undefined {
  return content?.["application/json"]?.schema;
}

/** The source of src/generated/openapi.ts for a document. */
export function renderTypes(doc: OpenApiInput): string {
  const out: string[] = [
    "// Generated by scripts/generate-types.ts from the service's OpenAPI document (GET /openapi.json).",
    "// Do not edit: run `npm run generate -w @profile-service/client` after the API changes.",
    "",
  ];
  const index: string[] = [];
  for (const p of Object.keys(doc.paths)
    .filter((k) => k.startsWith("/v1/"))
    .sort()) {
    const ops = doc.paths[p]!;
    for (const method of METHODS) {
      const op = ops[method];
      if (!op?.operationId) continue;
      const name = typeName(op.operationId);
      const entry: string[] = [];
      const query = (op.parameters ?? []).filter((q) => q.in === "query");
      if (query.length) {
        const schema: Schema = {
          type: "object",
          properties: Object.fromEntries(query.map((q) => [q.name, { ...q.schema, description: q.description ?? q.schema?.description }])),
          required: query.filter((q) => q.required).map((q) => q.name),
          additionalProperties: false,
        };
        out.push(`/** Query of ${method.toUpperCase()} ${p}. */`, `export type ${name}Query = ${tsType(schema)};`, "");
        entry.push(`query: ${name}Query`);
      }
      const body = jsonSchema(op.requestBody?.content);
      if (body) {
        out.push(`/** Body of ${method.toUpperCase()} ${p}. */`, `export type ${name}Body = ${tsType(body)};`, "");
        entry.push(`body: ${name}Body`);
      }
      const answers = Object.entries(op.responses ?? {})
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([, r]) => jsonSchema(r.content))
        .filter((s): s is Schema => s !== undefined);
      if (answers.length) {
        out.push(
          `/** Answer of ${method.toUpperCase()} ${p}${op.summary ? `: ${op.summary.replace(/\*\//g, "")}` : ""} */`,
          `export type ${name}Response = ${union(answers.map((a) => tsType(a)))};`,
          "",
        );
        entry.push(`response: ${name}Response`);
      }
      index.push(`  ${literal(`${method.toUpperCase()} ${p}`)}: { ${entry.join("; ")}${entry.length ? ";" : ""} };`);
    }
  }
  out.push("/** Every /v1 operation by method and path, with its query, body and answer types. */", "export interface Operations {", ...index, "}", "");
  return out.join("\n");
}

/** The OpenAPI document: a saved file, a running service's /openapi.json, or the one this repository builds. */
export async function loadDocument(source: string | undefined): Promise<OpenApiInput> {
  if (source && /^https?:\/\//.test(source)) return (await (await fetch(source)).json()) as OpenApiInput;
  if (source) return JSON.parse(await readFile(source, "utf8")) as OpenApiInput;
  const { serviceOpenApi } = await import("../../../app/openapi.json/document");
  return serviceOpenApi().document;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = await loadDocument(process.argv[2]);
  await writeFile(GENERATED_FILE, renderTypes(doc));
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_FILE)}`);
  process.exit(0);
}
