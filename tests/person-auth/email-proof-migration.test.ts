// The migration that drops the early "mailbox" proof: an account marked with it keeps its address,
// unproven by the mark (a mailbox proves an address only while a working connection owns it), and the
// value is gone from the enum.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "@/lib/platform/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/platform/db/open";
import { pgliteSql } from "@/lib/platform/db/sql";

const open: PGlite[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close()));
});

it("turns the mailbox proof into none, keeping every address and every other proof", async () => {
  const all = readMigrations(MIGRATIONS_DIR);
  const ours = all.find((m) => m.name.endsWith("_email_proof_without_mailbox"))!;
  const before = mkdtempSync(path.join(tmpdir(), "migrations-before-"));
  for (const m of all.filter((m) => m.name < ours.name)) cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(before, m.name), { recursive: true });
  const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  open.push(db);
  const sql = pgliteSql(db);
  await applyMigrations(sql, { dir: before });

  const users = { mailbox: "00000000-0000-4000-8000-000000000001", third_party: "00000000-0000-4000-8000-000000000002", none: "00000000-0000-4000-8000-000000000003" };
  for (const [proof, id] of Object.entries(users)) {
    await sql.exec(`INSERT INTO users (id, plane, email, email_proof) VALUES ('${id}', 'live', '${proof}@example.com', '${proof}')`);
  }
  await applyMigrations(sql, { dir: MIGRATIONS_DIR });

  const rows = await sql.query<{ id: string; email: string; email_proof: string }>(`SELECT id::text, email, email_proof::text FROM users ORDER BY id`);
  expect(rows).toEqual([
    { id: users.mailbox, email: "mailbox@example.com", email_proof: "none" },
    { id: users.third_party, email: "third_party@example.com", email_proof: "third_party" },
    { id: users.none, email: "none@example.com", email_proof: "none" },
  ]);
  await expect(sql.exec(`UPDATE users SET email_proof = 'mailbox'`)).rejects.toThrow();
  const [column] = await sql.query<{ fallback: string }>(
    `SELECT column_default AS fallback FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'email_proof'`,
  );
  expect(column?.fallback).toContain("none");
});
