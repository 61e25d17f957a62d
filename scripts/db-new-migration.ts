// Creates prisma/migrations/<ts>_<name>/migration.sql from schema.prisma with Prisma's WASM schema engine.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite, messages } from "@electric-sql/pglite";
import { bindMigrationAwareSqlAdapterFactory, DriverAdapterError, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import * as engineGlue from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PGLITE_EXTENSIONS } from "../lib/platform/db/open";

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
const LOCKFILE = "migration_lock.toml";
const NO_FILTER = { externalTables: [], externalEnums: [] };

function parseArgs(argv: string[]): { name: string; schemaPath: string } {
  let schemaPath = path.join(ROOT, "prisma/schema.prisma");
  const rest: string[] = [];
  const args = [...argv];
  for (let arg = args.shift(); arg !== undefined; arg = args.shift()) {
    if (arg !== "--schema") rest.push(arg);
    else {
      const value = args.shift();
      if (!value) throw new Error("--schema needs a path");
      schemaPath = path.resolve(value);
    }
  }
  const [name, ...extra] = rest;
  // The name becomes part of a directory name that Prisma sorts and matches by.
  if (!name || extra.length > 0 || !/^[A-Za-z0-9_]{1,200}$/.test(name)) {
    throw new Error("usage: db-new-migration <name> [--schema <path>]  (name: letters, digits, _)");
  }
  return { name, schemaPath };
}

function loadMigrations(): MigrationList {
  const lockPath = path.join(MIGRATIONS_DIR, LOCKFILE);
  const dirs = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((dir) => ({
      path: dir,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: readFileSync(path.join(MIGRATIONS_DIR, dir, "migration.sql"), "utf8") },
      },
    })),
  };
}

// pglite-prisma-adapter 0.7.2 fires client.exec() without awaiting it, so a failing script would
// look successful to the engine; await it and hand the engine a proper PostgreSQL error instead.
async function checkedAdapter(client: PGlite): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPGlite(client).connect();
  adapter.executeScript = async (script: string) => {
    try {
      await client.exec(script);
    } catch (e) {
      if (!(e instanceof messages.DatabaseError)) throw e;
      throw new DriverAdapterError({
        kind: "postgres",
        code: e.code ?? "N/A",
        severity: e.severity ?? "N/A",
        message: e.message,
        detail: e.detail,
        column: e.column,
        hint: e.hint,
      });
    }
  };
  return adapter;
}

async function loadEngine(schemaPath: string, schema: string): Promise<engineGlue.SchemaEngine> {
  const require = createRequire(import.meta.url);
  // The package exports only its JS glue; the .wasm file sits next to it.
  const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
  const module = new WebAssembly.Module(readFileSync(wasmPath));
  const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": engineGlue as unknown as WebAssembly.ModuleImports });
  engineGlue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();

  // Both databases are throw-away in-memory instances, so nothing outside this process is touched.
  const dev = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: "postgres",
    adapterName: "pglite-checked",
    connect: () => checkedAdapter(dev),
    connectToShadowDb: () => checkedAdapter(new PGlite({ extensions: PGLITE_EXTENSIONS })),
  };
  const log = (line: string) => {
    if (/"level":"(ERROR|WARN)"/.test(line)) console.error(line);
  };
  return engineGlue.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, log, bindMigrationAwareSqlAdapterFactory(factory));
}

async function main(): Promise<void> {
  const { name, schemaPath } = parseArgs(process.argv.slice(2));
  const schema = readFileSync(schemaPath, "utf8");
  const engine = await loadEngine(schemaPath, schema);
  const migrationsList = loadMigrations();
  await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
  // The WASM engine's createMigration cannot open a shadow database itself: it reuses the schema that
  // devDiagnostic builds by replaying the *applied* migrations on the factory's shadow database, so
  // the dev database must hold the whole history first.
  const { action } = await engine.devDiagnostic({ migrationsList, filters: NO_FILTER });
  if (action.tag === "reset") throw new Error(`Migration history is inconsistent: ${action.reason}`);
  const out = await engine.createMigration({
    draft: false,
    migrationName: name,
    migrationsList,
    schema: { files: [{ path: schemaPath, content: schema }] },
    filters: NO_FILTER,
  });
  if (out.migrationScript === null) {
    console.log("No schema changes; no migration created.");
    return;
  }
  const dir = path.join(MIGRATIONS_DIR, out.generatedMigrationName);
  if (existsSync(dir)) throw new Error(`Migration directory already exists: ${dir}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `migration.${out.extension}`), out.migrationScript, "utf8");
  if (migrationsList.lockfile.content === null) {
    // Same text the Prisma CLI writes, so `prisma migrate` accepts the directory as its own.
    writeFileSync(
      path.join(MIGRATIONS_DIR, LOCKFILE),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${out.connectorType}"\n`,
      "utf8",
    );
  }
  console.log(`Created ${path.relative(ROOT, dir)}/migration.${out.extension}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`db:new-migration failed: ${e instanceof Error ? `${e.name}: ${e.message}` : JSON.stringify(e)}`);
    process.exit(1);
  },
);
