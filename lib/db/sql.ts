// A minimal raw-SQL connection over PGlite or node-postgres, for migrations and health checks.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

export interface SqlConnection {
  /** Runs a script of one or more statements; rejects on the first failing statement. */
  exec(script: string): Promise<void>;
  query<T extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
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
  };
}
