// Writes profile_service/_generated.py: a TypedDict for every /v1 JSON operation of the service's
// OpenAPI document (query, body and answer), read from its JSON Schemas, and the error-code tables of
// the TypeScript client (packages/client/src/errors.ts), so both libraries name errors alike.
// `renderPython` is pure, so a test can compare the checked-in file with what the current document gives.
//
//   npm run generate:python                                     (the document this repository builds)
//   tsx packages/python/scripts/generate-types.ts <file | URL>  (a saved document, or a running service's /openapi.json)
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, ERROR_DOCS_PATH, WIRE_ERROR_CODES } from "../../client/src/errors";
import { jsonSchema, loadDocument, METHODS, type OpenApiInput, type Operation, type Schema } from "../../client/scripts/generate-types";

export const GENERATED_PYTHON_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../profile_service/_generated.py");

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Python's reserved words: a key spelled so cannot be a class-syntax field of a TypedDict.
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** A Python literal for a JSON value (strings as JSON strings, which Python reads alike). */
export function pyLiteral(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`)
    .join(", ")}}`;
}

function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** A docstring: triple-quoted when the text allows it as written, else a JSON string (which Python reads alike). */
function docLiteral(text: string): string {
  return /["\\]/.test(text) ? JSON.stringify(text) : `"""${text}"""`;
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes("Any")) return "Any";
  const literals = unique.filter((p) => p.startsWith("Literal["));
  const rest = unique.filter((p) => !p.startsWith("Literal["));
  // Literal["a"] | Literal["b"] reads better as one Literal["a", "b"].
  const merged = literals.length > 1 ? [`Literal[${literals.map((l) => l.slice("Literal[".length, -1)).join(", ")}]`] : literals;
  return [...merged, ...rest].join(" | ");
}

/** Renders schemas as Python types, collecting the TypedDict classes their objects need (dependencies first). */
export class PythonTypes {
  readonly classes: string[] = [];
  private readonly names = new Set<string>();

  private className(hint: string): string {
    let name = hint;
    for (let n = 2; this.names.has(name); n++) name = `${hint}${n}`;
    this.names.add(name);
    return name;
  }

  /** A TypedDict for an object schema with properties; its name, `hint` or `hint` with a number. */
  private typedDict(s: Schema, hint: string, doc?: string): string {
    const required = new Set(s.required ?? []);
    const fields = Object.entries(s.properties ?? {}).map(([key, prop]) => {
      const type = this.type(prop, `${hint}${pascal(key)}`);
      return { key, type: required.has(key) ? type : `NotRequired[${type}]`, description: prop.description };
    });
    const name = this.className(hint);
    const lines: string[] = [];
    const docstring = doc ?? s.description;
    if (fields.every((f) => IDENTIFIER.test(f.key) && !KEYWORDS.has(f.key))) {
      lines.push(`class ${name}(TypedDict):`);
      if (docstring) lines.push(`    ${docLiteral(oneLine(docstring))}`);
      for (const f of fields) {
        if (f.description) lines.push(`    #: ${oneLine(f.description)}`);
        lines.push(`    ${f.key}: ${f.type}`);
      }
      if (!docstring && !fields.length) lines.push("    pass");
    } else {
      // A key that is a reserved word (`from`) or no identifier: the functional syntax keeps it as sent.
      if (docstring) lines.push(`# ${oneLine(docstring)}`);
      lines.push(`${name} = TypedDict(`, `    ${JSON.stringify(name)},`, "    {");
      for (const f of fields) {
        if (f.description) lines.push(`        #: ${oneLine(f.description)}`);
        lines.push(`        ${JSON.stringify(f.key)}: ${f.type},`);
      }
      lines.push("    },", ")");
    }
    this.classes.push(lines.join("\n"));
    return name;
  }

  private single(type: string, s: Schema, hint: string): string {
    switch (type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        if (s.prefixItems) return `tuple[${s.prefixItems.map((item, i) => this.type(item, `${hint}${i + 1}`)).join(", ")}]`;
        return `list[${s.items ? this.type(s.items, `${hint}Item`) : "Any"}]`;
      case "object": {
        const extra = s.additionalProperties;
        if (s.properties && Object.keys(s.properties).length) return this.typedDict(s, hint);
        if (extra && typeof extra === "object" && Object.keys(extra).length) return `dict[str, ${this.type(extra, `${hint}Value`)}]`;
        return "dict[str, Any]";
      }
      default:
        return "Any";
    }
  }

  /** The Python type a JSON Schema (2020-12) describes, for the keywords the document uses; `hint` names the classes it needs. */
  type(s: Schema | boolean | undefined, hint: string): string {
    if (s === undefined || s === true || (typeof s === "object" && Object.keys(s).length === 0)) return "Any";
    if (s === false) return "Never";
    if ("const" in s) return `Literal[${pyLiteral(s.const)}]`;
    if (s.enum) return union(s.enum.map((v) => (v === null ? "None" : `Literal[${pyLiteral(v)}]`)));
    const alternatives = s.anyOf ?? s.oneOf ?? s.allOf;
    if (alternatives) {
      const objects = alternatives.filter((a) => a.properties !== undefined || a.type === "object").length;
      let n = 0;
      return union(alternatives.map((a) => this.type(a, objects > 1 && (a.properties !== undefined || a.type === "object") ? `${hint}${++n}` : hint)));
    }
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ["object"] : [];
    if (!types.length) return "Any";
    return union(types.map((t) => this.single(t, s, hint)));
  }

  /** A named type for a top-level schema: its class when it is one object, else an alias. */
  named(s: Schema, name: string, doc: string): void {
    const isObject = (s.type === "object" || (s.type === undefined && s.properties !== undefined)) && Object.keys(s.properties ?? {}).length > 0;
    if (isObject && !s.anyOf && !s.oneOf && !s.allOf) {
      this.typedDict(s, name, doc);
      return;
    }
    const type = this.type(s, name);
    this.names.add(name);
    this.classes.push(`#: ${doc}\n${name}: TypeAlias = ${type}`);
  }
}

/** What the generated module may import from typing: those its text uses. */
const TYPING_NAMES = ["Any", "Literal", "Never", "NotRequired", "TypeAlias", "TypedDict"];

function errorTables(): string[] {
  const wire = Object.entries(WIRE_ERROR_CODES).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  return [
    "#: The thirteen error codes a ServiceError carries.",
    `ERROR_CODES: tuple[ErrorCode, ...] = (\n${ERROR_CODES.map((c) => `    ${JSON.stringify(c)},`).join("\n")}\n)`,
    "",
    "#: Every error code the service answers on /v1 (its `error.code`), and the library code it becomes.",
    `WIRE_ERROR_CODES: dict[str, ErrorCode] = {\n${wire.join("\n")}\n}`,
    "",
    "#: Where an error code is explained: its row in the library reference the service publishes.",
    `ERROR_DOCS_PATH = ${JSON.stringify(ERROR_DOCS_PATH)}`,
  ];
}

/** The source of profile_service/_generated.py for a document. */
export function renderPython(doc: OpenApiInput): string {
  const types = new PythonTypes();
  const index: string[] = [];
  for (const p of Object.keys(doc.paths)
    .filter((k) => k.startsWith("/v1/"))
    .sort()) {
    const ops = doc.paths[p] as Record<string, Operation>;
    for (const method of METHODS) {
      const op = ops[method];
      if (!op?.operationId) continue;
      const name = op.operationId.charAt(0).toUpperCase() + op.operationId.slice(1);
      const label = `${method.toUpperCase()} ${p}`;
      const entry: string[] = [];
      const query = (op.parameters ?? []).filter((q) => q.in === "query");
      if (query.length) {
        const schema: Schema = {
          type: "object",
          properties: Object.fromEntries(query.map((q) => [q.name, { ...q.schema, description: q.description ?? q.schema?.description }])),
          required: query.filter((q) => q.required).map((q) => q.name),
          additionalProperties: false,
        };
        types.named(schema, `${name}Query`, `Query of ${label}.`);
        entry.push(`"query": ${name}Query`);
      }
      const body = jsonSchema(op.requestBody?.content);
      if (body) {
        types.named(body, `${name}Body`, `Body of ${label}.`);
        entry.push(`"body": ${name}Body`);
      }
      const answers = Object.entries(op.responses ?? {})
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([, r]) => jsonSchema(r.content))
        .filter((s): s is Schema => s !== undefined);
      if (answers.length) {
        const answer: Schema = answers.length === 1 ? answers[0]! : { anyOf: answers };
        types.named(answer, `${name}Response`, `Answer of ${label}${op.summary ? `: ${oneLine(op.summary)}` : "."}`);
        entry.push(`"response": ${name}Response`);
      }
      index.push(`    ${JSON.stringify(label)}: {${entry.join(", ")}},`);
    }
  }
  const body = [
    "#: One of the thirteen error codes.",
    `ErrorCode: TypeAlias = Literal[${ERROR_CODES.map((c) => JSON.stringify(c)).join(", ")}]`,
    "",
    ...errorTables(),
    "",
    ...types.classes.flatMap((c) => ["", c, ""]),
    "",
    "#: Every /v1 operation by method and path, with its query, body and answer types.",
    `OPERATIONS: dict[str, dict[str, Any]] = {\n${index.join("\n")}\n}`,
    "",
  ].join("\n");
  const typing = TYPING_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  return [
    "# Generated by packages/python/scripts/generate-types.ts from the service's OpenAPI document (GET /openapi.json)",
    "# and the error tables of packages/client/src/errors.ts.",
    "# Do not edit: run `npm run generate:python` after the API changes.",
    '"""Request and answer types of every /v1 operation, and the error-code tables."""',
    "",
    // Annotations are evaluated as the classes are made (no `from __future__ import annotations`), so
    // each TypedDict knows its NotRequired keys at run time; classes come before the ones that use them.
    `from typing import ${typing.join(", ")}`,
    "",
    body,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = await loadDocument(process.argv[2]);
  await writeFile(GENERATED_PYTHON_FILE, renderPython(doc));
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_PYTHON_FILE)}`);
  process.exit(0);
}
