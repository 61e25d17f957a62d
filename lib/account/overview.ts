// What the person's own account page shows of them: the number's last four digits, and their address
// with whether it is verified, decided exactly as for an ID token.
import { addressProven, EMAIL_PROOF_COLUMNS, type EmailProofFacts } from "../person-auth/email-proof";
import { db } from "../platform/db";

/** The person's number and address as their account page shows them; null for an unknown id. */
export async function accountOverview(userId: string): Promise<{ phoneLast4: string | null; email: string | null; emailVerified: boolean } | null> {
  const [row] = await (
    await db()
  ).$queryRawUnsafe<Array<EmailProofFacts & { phone_last4: string | null }>>(`SELECT u.phone_last4, ${EMAIL_PROOF_COLUMNS} FROM users u WHERE u.id = $1::uuid`, userId);
  return row ? { phoneLast4: row.phone_last4, email: row.email, emailVerified: addressProven(row) } : null;
}
