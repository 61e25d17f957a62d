// The options every benchmark takes: the database, run lengths, connection counts and the built tree.
import { parseArgs } from "node:util";
import type { DbKind } from "./server";

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, not '${raw}'.`);
  return n;
}

/** Parses the shared options plus `extra` string options (with their defaults). */
export function benchOptions<E extends Record<string, string>>(defaults: { db: DbKind }, extra = {} as E) {
  const { values } = parseArgs({
    options: {
      db: { type: "string", default: defaults.db },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "10" },
      warmup: { type: "string", default: "3" },
      "postgres-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/test" },
      dir: { type: "string", default: process.cwd() },
      ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [name, { type: "string" as const, default: value }])),
    },
  });
  const v = values as Record<string, string>;
  const db = (["pglite", "postgres"] as const).find((kind) => kind === v.db);
  if (!db) throw new Error(`--db must be pglite or postgres, not '${v.db}'.`);
  return {
    db,
    duration: positive("duration", v.duration!),
    connections: v.connections!.split(",").map((c) => positive("connections", c.trim())),
    warmup: positive("warmup", v.warmup!),
    postgresUrl: v["postgres-url"]!,
    root: v.dir!,
    extra: Object.fromEntries(Object.keys(extra).map((k) => [k, v[k]!])) as E,
  };
}
