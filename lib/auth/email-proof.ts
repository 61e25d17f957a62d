// Whether the service has proof that a person controls their address: the one decision behind
// email_verified everywhere (ID tokens, GET /v1/profile, the account page, the flow's mailbox page).
import type { MailboxApp } from "../catalogue";
import { DEVELOPMENT_PROVIDER, SANDBOX_MAILBOX_ACCOUNT_ID } from "../connectors/types";
import { db } from "../db";
import type { Prisma } from "../db/generated/client";

/**
 * The mailboxes whose connection proves the address: Gmail, whose address comes from Google's ID
 * token only when Google says it is verified. Outlook proves nothing: Microsoft Graph's `mail` is set
 * freely by a tenant's administrator, so it says which mailbox was connected, not who controls it.
 */
export const PROVING_MAILBOX = { app: "gmail" satisfies MailboxApp, provider: "google" } as const;

/** The users columns (as `u`) the decision reads, for statements that read them alongside other data. */
export const EMAIL_PROOF_COLUMNS = `u.email, u.email_proof::text AS email_proof, u.plane::text AS plane,
  EXISTS (SELECT 1 FROM app_connections m WHERE m.user_id = u.id AND m.app = '${PROVING_MAILBOX.app}' AND m.status = 'active'
          AND lower(m.account_email) = lower(u.email)
          AND (m.provider = '${PROVING_MAILBOX.provider}' OR (u.synthetic AND m.provider = '${DEVELOPMENT_PROVIDER}' AND m.account_id = '${SANDBOX_MAILBOX_ACCOUNT_ID}'))) AS mailbox_owned`;

export interface EmailProofSource {
  email: string | null;
  /** users.email_proof: how the address was last proven, if it was. */
  email_proof: string;
  plane: string;
  /** A connected, working mailbox that vouches for the address owns it (EMAIL_PROOF_COLUMNS). */
  mailbox_owned: boolean;
}

/**
 * True only with proof that the person controls the address, as it stands now: a connected mailbox
 * that vouches for it, a six-digit code e-mailed to it, or a Google or GitHub sign-in. A typed
 * address, or one another app supplied, has none. A code the development outbox delivered (where the
 * service itself shows codes) proves an address on the test plane only.
 */
export function emailVerified(source: EmailProofSource): boolean {
  if (!source.email) return false;
  if (source.mailbox_owned) return true;
  switch (source.email_proof) {
    case "email_code":
    case "third_party":
      return true;
    case "development_code":
      return source.plane === "test";
    default:
      return false;
  }
}

/** The decision for one account, read now (inside `tx` when given). */
export async function accountEmailVerified(userId: string, tx?: Prisma.TransactionClient): Promise<boolean> {
  const [row] = await (tx ?? (await db())).$queryRawUnsafe<EmailProofSource[]>(`SELECT ${EMAIL_PROOF_COLUMNS} FROM users u WHERE u.id = $1::uuid`, userId);
  return !!row && emailVerified(row);
}
