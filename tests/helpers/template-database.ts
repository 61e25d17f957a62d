// The PostgreSQL leg's per-file databases: clones of one migrated template database that
// tests/global-setup.ts builds once per run, dropped when their file ends.
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

/** Clones `template` as `database` on the server of `serverUrl`; returns the clone's DATABASE_URL. */
export async function cloneTemplateDatabase(serverUrl: string, template: PostgresTemplate, database: string): Promise<string> {
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(template.database)}`));
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  u.searchParams.set("schema", template.schema);
  return u.toString();
}

/** Drops `database`, ending any connection a test left open. */
export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  await withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`));
}
