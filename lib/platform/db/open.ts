// Opens the configured database (embedded PGlite or PostgreSQL), migrates it and wraps it in Prisma.
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { PGlite, types } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import type pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { logger } from "../log";
import { processWideSlot } from "../../process-wide";
import { PrismaClient } from "./generated/client";
import { lockDataDir } from "./lock";
import { applyMigrations } from "./migrate";
import { copyStatement, copyText, pgCopyFrom } from "./copy";
import { pgClientSql, pgliteSql, type SqlConnection } from "./sql";

export interface Database {
  prisma: PrismaClient;
  /** Raw SQL on the same database (health checks, migrations). */
  sql: SqlConnection;
  kind: "pglite" | "postgres";
  /** The embedded engine, when embedded (pg-boss and tests reuse its single connection). */
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  migrate?: boolean;
}

/** Splits Prisma's `?schema=` convention off a PostgreSQL URL (node-postgres does not know it). */
export function parsePostgresUrl(raw: string): { connectionString: string; schema?: string } {
  const u = new URL(raw);
  const schema = u.searchParams.get("schema") ?? undefined;
  u.searchParams.delete("schema");
  return { connectionString: u.toString(), schema };
}

/**
 * A new embedded database made at build time (scripts/build-db-template.ts): a closed PGlite data
 * directory with initdb already run and the migrations of that build applied. A first start copies
 * it. Running initdb inside WebAssembly instead takes about 2.5 s and leaves the process holding
 * several hundred MB it never returns.
 */
export const PGLITE_TEMPLATE = path.join(process.cwd(), ".next", "service-db-template");

/**
 * PGlite's defaults plus a smaller buffer pool: the embedded database serves one process, its files
 * sit in the OS page cache anyway, and the default pool costs about 100 MB of resident memory.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/**
 * Extensions the migrations create, which PGlite must have loaded (PostgreSQL ships them in
 * contrib): btree_gin, for the per-user full-text index on memories.
 */
export const PGLITE_EXTENSIONS = { btree_gin };

/** Options every embedded database of the service opens with (server, template, tests, tools). */
export const PGLITE_OPTIONS = { startParams: PGLITE_START_PARAMS, extensions: PGLITE_EXTENSIONS };

/**
 * What a new in-memory database starts from, when set: a PGlite data directory image (`dumpDataDir`)
 * with the migrations already applied, loaded instead of running initdb (about 2 s of WebAssembly). The
 * test suite sets it to one image built per run (tests/global-setup.ts); the service never does.
 */
const memoryImage = processWideSlot<() => Blob>("db.memory-image");

/** Starts every later `memory://` database of this process from `image` (or afresh, when undefined). */
export function startMemoryDatabasesFrom(image: (() => Blob) | undefined): void {
  memoryImage.current = image;
}

/** The first object id a database gives its own objects; lower ids are built in, the same in every build of a version. */
const FIRST_NORMAL_OBJECT_ID = 16384;

/**
 * PGlite parses each statement's rows with a fresh copy of its instance's parser map (`{...this.parsers}`
 * in its parseResults), and fills that map with a parser for every array type in pg_type: about 400,
 * nearly all of them arrays of the system catalogs' and the tables' row types. The copy of so many
 * sparse numeric keys cost about 0.1 ms a statement, more than a point-select's own execution. A type
 * the instance map lacks is parsed by PGlite's shared default parsers (`types.parsers`, the fallback of
 * its parseType). So the built-in array types join those shared parsers, once per process, each parsing
 * its elements with the default parser of its element type as PGlite's own does; the instance keeps
 * only this database's own array types whose elements are not rows (its enums' arrays). Run again
 * after migrations, so array types they made are parsed too. The map left is copied in a few microseconds.
 */
export async function slimPgliteParsers(db: PGlite): Promise<void> {
  const { rows } = await db.query<{ element: number; array: number; kind: string }>(
    `SELECT e.oid::int AS element, a.oid::int AS array, e.typtype::text AS kind
       FROM pg_catalog.pg_type a JOIN pg_catalog.pg_type e ON e.oid = a.typelem
      WHERE a.typcategory = 'A'`,
  );
  const shared = types.parsers;
  const own: PGlite["parsers"] = {};
  for (const { element, array, kind } of rows) {
    const parse = (x: string): unknown => types.arrayParser(x, shared[element] as types.Parser, array) as unknown;
    if (array < FIRST_NORMAL_OBJECT_ID) shared[array] ??= parse;
    else if (kind !== "c") own[array] = parse;
  }
  db.parsers = own;
}

async function createPglite(dir: string): Promise<PGlite> {
  const fresh = !existsSync(/*turbopackIgnore: true*/ path.join(dir, "PG_VERSION"));
  if (fresh && existsSync(/*turbopackIgnore: true*/ path.join(PGLITE_TEMPLATE, "PG_VERSION"))) {
    // Copied to a sibling first and renamed, so an interrupted copy never looks like a database.
    // The data directory's lock is held, so no other process is copying.
    const partial = `${dir}.partial`;
    rmSync(/*turbopackIgnore: true*/ partial, { recursive: true, force: true });
    cpSync(/*turbopackIgnore: true*/ PGLITE_TEMPLATE, partial, { recursive: true });
    renameSync(partial, dir);
  }
  return PGlite.create(dir, PGLITE_OPTIONS);
}

async function openPglite(dataDir: string): Promise<{ pglite: PGlite; release: () => void }> {
  if (dataDir.startsWith("memory://")) {
    const image = memoryImage.current?.();
    return { pglite: await PGlite.create(image ? { ...PGLITE_OPTIONS, loadDataDir: image } : PGLITE_OPTIONS), release: () => undefined };
  }
  const dir = path.resolve(dataDir, "pglite");
  // PGlite's own mkdir is not recursive.
  mkdirSync(path.dirname(dir), { recursive: true });
  const release = lockDataDir(path.join(path.dirname(dir), "pglite.lock"));
  try {
    return { pglite: await createPglite(dir), release };
  } catch (err) {
    release();
    throw err;
  }
}

/** Applies pending migrations over one dedicated connection; returns the names applied. */
export async function migratePostgres(databaseUrl: string): Promise<string[]> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  // The PostgreSQL driver loads only when it is used: the embedded mode starts without it.
  const { default: pgDriver } = await import("pg");
  const client = new pgDriver.Client({ connectionString });
  await client.connect();
  try {
    if (schema) {
      const quoted = `"${schema.replace(/"/g, "")}"`;
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      // public stays on the path: extensions (btree_gin's operator classes) live there.
      await client.query(`SET search_path TO ${quoted}, public`);
    }
    // The lock serialises several instances starting at once against one database.
    return await applyMigrations(pgClientSql(client), { advisoryLock: true });
  } finally {
    await client.end();
  }
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const migrate = opts.migrate ?? true;
  if (!opts.databaseUrl) {
    const { pglite, release } = await openPglite(opts.dataDir);
    const sql = pgliteSql(pglite);
    try {
      if (migrate) await applyMigrations(sql);
      await slimPgliteParsers(pglite);
    } catch (err) {
      await pglite.close();
      release();
      throw err;
    }
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    return {
      prisma,
      sql,
      kind: "pglite",
      pglite,
      async close() {
        await prisma.$disconnect();
        // PGlite serialises statements; one more waits out any still running, since closing under
        // a running statement never returns.
        await pglite.query("SELECT 1").catch(() => undefined);
        await pglite.close();
        release();
      },
    };
  }

  const { connectionString, schema } = parsePostgresUrl(opts.databaseUrl);
  const [{ default: pgDriver }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const pool = new pgDriver.Pool({
    connectionString,
    max: 10,
    ...(schema ? { options: `-c search_path="${schema.replace(/"/g, "")}",public` } : {}),
  });
  // An idle connection the server ends (a restart, an administrator's terminate, a network cut) is
  // emitted here: without a listener it would end the process. The pool drops it and connects anew.
  pool.on("error", (err) => logger().warn({ err: err.message }, "database connection lost; the pool reconnects"));
  if (migrate) await migratePostgres(opts.databaseUrl);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) });
  const sql: SqlConnection = {
    async exec(script) {
      await pool.query(script);
    },
    async query<T extends Record<string, unknown>>(text: string, params: unknown[] = [], options: { name?: string } = {}): Promise<T[]> {
      return (await pool.query<T>(options.name ? { name: options.name, text, values: params } : { text, values: params })).rows;
    },
    async copyFrom(table, columns, rows) {
      const client = await pool.connect();
      try {
        await pgCopyFrom(client, copyStatement(table, columns, "STDIN"), copyText(rows));
        client.release();
      } catch (err) {
        // A statement the server refused leaves the connection usable; any other failure (a lost
        // connection) has the pool drop it.
        client.release(err instanceof Error && "severity" in err ? undefined : err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
    },
  };
  return {
    prisma,
    sql,
    kind: "postgres",
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
