// Rows loaded with COPY … FROM STDIN in PostgreSQL's text format: for the logs that every request adds
// to (the request log, the access log), which PostgreSQL takes in about three fifths of the CPU of the
// same rows as an INSERT over unnest()ed arrays (docs/performance.md, "The two logs on the read, and COPY").
import type pg from "pg";

/** A value of one column: text, a number, a time, or NULL. */
export type CopyValue = string | number | Date | null;

/** One field in COPY's text format: backslash, tab, newline and carriage return escaped; NULL is \N. */
function field(value: CopyValue): string {
  if (value === null) return "\\N";
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return value.toISOString();
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : value;
}

/** Rows in COPY's text format: one line each, fields separated by tabs. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = "";
  for (const row of rows) text += row.map(field).join("\t") + "\n";
  return text;
}

type Rows = readonly (readonly CopyValue[])[];

/**
 * Loads a batch with one COPY into `table`; a batch COPY refuses goes again through `otherwise`, the
 * writer's INSERT. COPY is all or nothing, so one row its constraints refuse (a person or developer
 * deleted while the batch waited, a row a batch tried again after a lost answer already wrote) fails
 * the whole batch: the INSERT leaves such rows out and writes the rest. A database that is away fails
 * both, and the caller tries again.
 */
export async function copyElse(
  sql: { copyFrom(table: string, columns: readonly string[], rows: Rows): Promise<void> },
  load: { table: string; columns: readonly string[]; rows: Rows },
  otherwise: () => Promise<void>,
): Promise<void> {
  try {
    await sql.copyFrom(load.table, load.columns, load.rows);
  } catch {
    await otherwise();
  }
}

/** The statement that loads `columns` of `table` (names of the service's own schema, never input). */
export function copyStatement(table: string, columns: readonly string[], source: "STDIN" | "'/dev/blob'"): string {
  return `COPY ${table} (${columns.join(", ")}) FROM ${source}`;
}

/**
 * One COPY FROM STDIN on a node-postgres client, through the driver's documented custom-query
 * interface (an object with `submit`, as pg-copy-streams and pg-cursor are): the data goes in one
 * CopyData message; the promise resolves at ReadyForQuery and rejects with the server's error when the
 * COPY failed (the whole COPY is then undone: COPY is all or nothing).
 */
export function pgCopyFrom(client: pg.PoolClient | pg.Client, statement: string, data: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const copy = {
      submit(connection: { query(text: string): void }) {
        connection.query(statement);
      },
      handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }) {
        if (data.length) connection.sendCopyFromChunk(Buffer.from(data, "utf8"));
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleRowDescription() {},
      handleDataRow() {},
      handleEmptyQuery() {},
      handlePortalSuspended() {},
      handleCopyData() {},
      // The driver hands a failed statement its error and forgets it (the ReadyForQuery after goes to
      // nobody); a lost connection comes the same way.
      handleError: reject,
      handleReadyForQuery: () => resolve(),
    };
    (client as unknown as { query(submittable: object): void }).query(copy);
  });
}
