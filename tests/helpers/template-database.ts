// The PostgreSQL leg's per-file databases: clones of one migrated template database that
// tests/global-setup.ts builds once per run. Each clone is named after the template, so the run's
// end finds and drops whatever a file could not drop itself.
import pg from "pg";

/** The schema the template's tables live in, so the tests go through the service's `?schema=` handling. */
export const POSTGRES_TEMPLATE_SCHEMA = "service";

export interface PostgresTemplate {
  database: string;
  schema: string;
}

/** A PostgreSQL identifier, quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The name of a clone of `template`: the template's name and the file's own suffix. */
export function cloneName(template: PostgresTemplate, suffix: string): string {
  return `${template.database}_${suffix}`;
}

/** Clones `template` as `database` on the server of `serverUrl`; returns the clone's DATABASE_URL. */
export async function cloneTemplateDatabase(serverUrl: string, template: PostgresTemplate, database: string): Promise<string> {
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(template.database)}`));
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  u.searchParams.set("schema", template.schema);
  return u.toString();
}

/**
 * Drops `database` if nobody is connected to it; returns whether it is gone. A connection a test left
 * open is not ended here (its pool would throw in the test's own process): the run's end drops it.
 */
export async function dropIfUnused(serverUrl: string, database: string): Promise<boolean> {
  return withAdmin(serverUrl, async (c) => {
    try {
      await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)}`);
      return true;
    } catch (err) {
      // 55006: the database is being accessed by other users.
      if ((err as { code?: string }).code === "55006") return false;
      throw err;
    }
  });
}

/** Drops the template and every clone of it, ending any connection still open (the run is over). */
export async function dropTemplateAndClones(serverUrl: string, template: PostgresTemplate): Promise<void> {
  await withAdmin(serverUrl, async (c) => {
    const prefix = cloneName(template, "");
    const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(template.database)} WITH (FORCE)`);
  });
}
