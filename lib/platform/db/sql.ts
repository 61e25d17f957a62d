// A minimal raw-SQL connection over PGlite or node-postgres: migrations, health checks, and the hot
// reads that run on every request.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { copyStatement, copyText, pgCopyFrom, type CopyValue } from "./copy";

export interface SqlConnection {
  /** Runs a script of one or more statements; rejects on the first failing statement. */
  exec(script: string): Promise<void>;
  /**
   * Runs one statement. A `name` makes it a prepared statement on PostgreSQL, parsed and planned
   * once per connection: worth it for the statements every request runs.
   */
  query<T extends Record<string, unknown>>(text: string, params?: unknown[], options?: { name?: string }): Promise<T[]>;
  /**
   * Loads rows into `columns` of `table` with one COPY (lib/platform/db/copy.ts): all of them, or none
   * and a rejection (a constraint refused one, say).
   */
  copyFrom(table: string, columns: readonly string[], rows: readonly (readonly CopyValue[])[]): Promise<void>;
}

export function pgliteSql(db: PGlite): SqlConnection {
  return {
    async exec(script) {
      await db.exec(script);
    },
    async query<T extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const res = await db.query<T>(text, params);
      return res.rows;
    },
    async copyFrom(table, columns, rows) {
      // The embedded engine reads COPY's data from a blob handed with the statement.
      await db.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([copyText(rows)]) });
    },
  };
}

/** A connection that holds one pooled client for its whole life (advisory locks are per session). */
export function pgClientSql(client: pg.PoolClient | pg.Client): SqlConnection {
  return {
    async exec(script) {
      await client.query(script);
    },
    async query<T extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const res = await client.query(text, params);
      return res.rows as T[];
    },
    async copyFrom(table, columns, rows) {
      await pgCopyFrom(client, copyStatement(table, columns, "STDIN"), copyText(rows));
    },
  };
}
