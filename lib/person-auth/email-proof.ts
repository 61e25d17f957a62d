// Whether the service has proof that a person controls their address: one pure decision,
// `addressProven`, for its two uses — email_verified everywhere (ID tokens, GET /v1/profile, the
// account page, the flow's mailbox page) and recognizing a message's sender by address. The SQL that
// reads the facts it needs, the condition recognition filters on, and the flow's view of a mailbox
// not yet on the account are all written from the same two tables below.
import type { MailboxApp } from "../catalogue";
import { DEVELOPMENT_PROVIDER, SANDBOX_MAILBOX_ACCOUNT_ID } from "../connectors/types";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { EmailProof, Plane } from "../platform/db/generated/enums";

/**
 * What a proof is asked for. `email_verified`: the person controls the address. `recognition`: the
 * address is held by an OAuth credential of the person (a code e-mailed once proves a mailbox was
 * read, not who holds it), so a message from it may name them.
 */
export type ProofUse = "email_verified" | "recognition";

/** How users.email_proof says the address was last proven; "none" when it was not. */
export type RecordedProof = EmailProof;

/** A connected, working mailbox whose address is the account's address, by which kind it is. */
export type OwningMailbox = "google" | "sandbox";

const ALL_PLANES: readonly Plane[] = ["live", "test"];

/** The planes on which each recorded proof proves the address, per use. */
const RECORDED: Readonly<Record<Exclude<RecordedProof, "none">, Readonly<Record<ProofUse, readonly Plane[]>>>> = {
  // A six-digit code e-mailed to the address through a real mail server.
  email_code: { email_verified: ALL_PLANES, recognition: [] },
  // A Google or GitHub sign-in that vouched for the address.
  third_party: { email_verified: ALL_PLANES, recognition: ALL_PLANES },
  // A code the development outbox delivered (where the service itself shows codes): the test plane only.
  development_code: { email_verified: ["test"], recognition: [] },
};

/**
 * The mailboxes whose connection proves the address, and on which planes, per use. Gmail, whose
 * address comes from Google's ID token only when Google says it is verified; and a sandbox's
 * synthetic user's stand-in Gmail. Outlook proves nothing: Microsoft Graph's `mail` is set freely by
 * a tenant's administrator, so it says which mailbox was connected, not who controls it.
 */
const MAILBOXES: Readonly<
  Record<OwningMailbox, { app: MailboxApp; provider: string; accountId: string | null; syntheticOnly: boolean; planes: Readonly<Record<ProofUse, readonly Plane[]>> }>
> = {
  google: { app: "gmail", provider: "google", accountId: null, syntheticOnly: false, planes: { email_verified: ALL_PLANES, recognition: ALL_PLANES } },
  sandbox: { app: "gmail", provider: DEVELOPMENT_PROVIDER, accountId: SANDBOX_MAILBOX_ACCOUNT_ID, syntheticOnly: true, planes: { email_verified: ALL_PLANES, recognition: [] } },
};
/** Strongest first: where two own the address, facts name the first (it proves on every plane and use the other does). */
const MAILBOX_KINDS: readonly OwningMailbox[] = ["google", "sandbox"];

/** What the decision reads about an account. */
export interface EmailProofFacts {
  email: string | null;
  /** users.email_proof. */
  email_proof: RecordedProof;
  plane: Plane;
  /** The connected, working mailbox that owns the address, if one does. */
  owning_mailbox: OwningMailbox | null;
}

/**
 * True only with proof, as things stand now, that the person controls the address (or, for
 * recognition, holds it by an OAuth credential): a mailbox that owns it, or a recorded proof, each on
 * the planes its table row names. A typed address, or one another app supplied, has none.
 */
export function addressProven(facts: EmailProofFacts, use: ProofUse = "email_verified"): boolean {
  if (!facts.email) return false;
  const byRecord = facts.email_proof === "none" ? [] : RECORDED[facts.email_proof][use];
  const byMailbox = facts.owning_mailbox ? MAILBOXES[facts.owning_mailbox].planes[use] : [];
  return byRecord.includes(facts.plane) || byMailbox.includes(facts.plane);
}

// ─── The same rules, as SQL and over connections read in code ──────────────────────────────────

/** The condition that a mailbox of this kind owns `u.email` (users as `u`). */
function owningMailboxSql(kind: OwningMailbox): string {
  const m = MAILBOXES[kind];
  const exists = `EXISTS (SELECT 1 FROM app_connections m WHERE m.user_id = u.id AND m.app = '${m.app}' AND m.status = 'active'
          AND lower(m.account_email) = lower(u.email) AND m.provider = '${m.provider}'${m.accountId ? ` AND m.account_id = '${m.accountId}'` : ""})`;
  return m.syntheticOnly ? `(u.synthetic AND ${exists})` : exists;
}

/** The users columns (as `u`) that make EmailProofFacts, for statements that read them alongside other data. */
export const EMAIL_PROOF_COLUMNS = `u.email, u.email_proof::text AS email_proof, u.plane::text AS plane,
  CASE ${MAILBOX_KINDS.map((kind) => `WHEN ${owningMailboxSql(kind)} THEN '${kind}'`).join(" ")} END AS owning_mailbox`;

function planeSql(planes: readonly Plane[]): string {
  return planes.length === ALL_PLANES.length ? "" : ` AND u.plane::text IN (${planes.map((p) => `'${p}'`).join(", ")})`;
}

/** `addressProven(facts, use)` as a condition on users (as `u`), for lookups that filter on it. */
export function addressProvenSql(use: ProofUse): string {
  const recorded = Object.entries(RECORDED)
    .filter(([, uses]) => uses[use].length)
    .map(([proof, uses]) => `(u.email_proof::text = '${proof}'${planeSql(uses[use])})`);
  const mailboxes = MAILBOX_KINDS.filter((kind) => MAILBOXES[kind].planes[use].length).map((kind) => `(${owningMailboxSql(kind)}${planeSql(MAILBOXES[kind].planes[use])})`);
  const any = [...recorded, ...mailboxes];
  return `(u.email IS NOT NULL AND ${any.length ? `(${any.join(" OR ")})` : "FALSE"})`;
}

/** A connection as the rule reads it. */
export interface MailboxConnection {
  app: string;
  provider: string;
  status: string;
  accountEmail: string | null;
  accountId: string;
}

/** The mailbox among `connections` that owns the address, by the same table as the SQL above. */
export function owningMailboxOf(user: { email: string | null; synthetic: boolean }, connections: readonly MailboxConnection[]): OwningMailbox | null {
  const email = user.email?.toLowerCase();
  if (!email) return null;
  const owns = (kind: OwningMailbox) => {
    const m = MAILBOXES[kind];
    if (m.syntheticOnly && !user.synthetic) return false;
    return connections.some(
      (c) => c.app === m.app && c.status === "active" && c.accountEmail?.toLowerCase() === email && c.provider === m.provider && (!m.accountId || c.accountId === m.accountId),
    );
  };
  return MAILBOX_KINDS.find(owns) ?? null;
}

/** email_verified for one account, read now (inside `tx` when given). */
export async function accountEmailVerified(userId: string, tx?: Prisma.TransactionClient): Promise<boolean> {
  const [row] = await (tx ?? (await db())).$queryRawUnsafe<EmailProofFacts[]>(`SELECT ${EMAIL_PROOF_COLUMNS} FROM users u WHERE u.id = $1::uuid`, userId);
  return !!row && addressProven(row);
}
