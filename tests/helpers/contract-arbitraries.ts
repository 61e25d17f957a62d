// Inputs a route's contract accepts, for the fuzz suite: fast-check arbitraries built from the JSON
// Schema of a zod schema (z.toJSONSchema). A valid base gets past the first validation, so that a
// hostile value put into one field reaches the route's own checks rather than the schema's.
import fc from "fast-check";
import { z } from "zod";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};

/** The input JSON Schema of a zod schema, or undefined when it has none. */
export function inputSchemaOf(schema: z.ZodType | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchema;
  } catch {
    return undefined;
  }
}

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.constantFrom("ada@example.com", "grace@example.org"),
  uri: fc.constantFrom("https://app.example.com/callback", "http://localhost:4000/cb"),
  url: fc.constantFrom("https://app.example.com/callback", "http://localhost:4000/cb"),
  "date-time": fc.constantFrom("2026-01-02T03:04:05Z", "2025-12-31T23:59:59.000Z"),
  date: fc.constantFrom("2026-01-02", "1990-05-17"),
  uuid: fc.uuid(),
};

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format && FORMATS[s.format]) return FORMATS[s.format]!;
  if (s.pattern) {
    // A pattern is honoured where fast-check can generate it; otherwise strings that may miss it.
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 200) && v.length >= (s.minLength ?? 0));
    } catch {
      // fall through
    }
  }
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  return fc.string({ minLength: min, maxLength: max, unit: "grapheme-ascii" });
}

function numberOf(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000);
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts (as far as JSON Schema says; refinements in code may still refuse them). */
export function valid(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 4) return fc.constant(undefined);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((c) => valid(c, depth + 1)));
  if (s.allOf?.length) return valid(s.allOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return stringOf(s);
    case "integer":
      return numberOf(s, true);
    case "number":
      return numberOf(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(valid(s.items, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, Math.max(s.minItems ?? 0, 3)) });
    case "object": {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valid(v, depth + 1)])), {
        requiredKeys: Object.keys(props).filter((k) => required.has(k)),
      });
    }
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
  }
}

/**
 * An object the contract accepts, with one field (chosen by the run) replaced by a hostile value, or
 * left whole: most requests get past the schema and reach what the route decides itself.
 */
export function validWithOneHostile(s: JsonSchema | undefined, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.keys(s?.properties ?? {});
  const base = valid(s).map((v) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {}));
  if (!fields.length) return base;
  return fc.tuple(base, fc.option(fc.constantFrom(...fields), { nil: undefined, freq: 2 }), hostile).map(([obj, field, value]) => (field ? { ...obj, [field]: value } : obj));
}

type FieldPath = Array<string | number>;

/**
 * Every place a schema takes a string, as paths into a value (an array's place is its first item), at
 * any depth: properties, array items, and every branch of a union. For the check that each of them
 * refuses text no contract may take.
 */
export function stringFields(s: JsonSchema | undefined, at: FieldPath = [], depth = 0): FieldPath[] {
  if (!s || depth > 6) return [];
  const found: FieldPath[] = [];
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.includes("string") && s.const === undefined && !s.enum) found.push(at);
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) found.push(...stringFields(branch, at, depth + 1));
  for (const [name, child] of Object.entries(s.properties ?? {})) found.push(...stringFields(child, [...at, name], depth + 1));
  if (s.items) found.push(...stringFields(s.items, [...at, 0], depth + 1));
  // A string enum still reaches the parser as whatever string was sent.
  if (s.enum?.some((v) => typeof v === "string") || typeof s.const === "string") found.push(at);
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(JSON.stringify(p)) && !!seen.add(JSON.stringify(p)));
}

/** `base` with `value` put at `path`, making the objects and arrays on the way. */
export function withValueAt(base: unknown, path: FieldPath, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(base) ? [...(base as unknown[])] : [];
    list[head] = withValueAt(list[head], rest, value);
    return list;
  }
  const obj = base && typeof base === "object" && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  obj[head!] = withValueAt(obj[head!], rest, value);
  return obj;
}

/** One value the schema accepts, the same on every run. */
export function oneValid(s: JsonSchema | undefined, seed: number): unknown {
  return fc.sample(valid(s), { seed, numRuns: 1 })[0];
}
