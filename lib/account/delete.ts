// Deleting the person's account and every row that belongs to it. Connected apps are disconnected
// first (their grants revoked at the provider, best effort); then, in one transaction, every table
// that names the person by id or by their number's hash is cleared of them, and the user row goes
// (the tables bound to it by a foreign key cascade). tests/account/delete.test.ts lists the
// database's tables itself and fails on one with such a column this module does not name.
import { z } from "zod";
import { deleteAppConnection } from "../connectors/connections";
import { db } from "../platform/db";
import { inTransaction } from "../profile/memories";
import { clearUserAccessCache } from "../users/approvals";
import { emitUserDeleted } from "../webhooks/emit";
import { AccountError } from "./errors";

/** The word the person types to confirm. */
export const DELETE_CONFIRMATION_WORD = "delete";

/**
 * How each table holding the person's id or number is cleared: `cascade` (the user row's foreign key),
 * `deleted` (rows removed here), `unlinked` (a developer's own record kept, the person's id removed
 * from it). The deletion test checks this list against the database.
 */
export const ACCOUNT_TABLES: Readonly<Record<string, "cascade" | "deleted" | "unlinked">> = {
  users: "deleted",
  memories: "cascade",
  memory_suppressions: "cascade",
  imports: "cascade",
  user_profiles: "cascade",
  commits: "cascade",
  read_obligations: "cascade",
  external_user_ids: "cascade",
  agent_approvals: "cascade",
  oauth_grants: "cascade",
  access_log: "cascade",
  connector_actions: "cascade",
  passkey_credentials: "cascade",
  flow_sessions: "deleted",
  app_connections: "deleted",
  connect_attempts: "deleted",
  connect_links: "deleted",
  capability_grants: "deleted",
  email_codes: "deleted",
  oauth_codes: "deleted",
  sign_in_codes: "deleted",
  passkey_challenges: "deleted",
  phone_codes: "deleted",
  sms_outbox: "deleted",
  email_outbox: "deleted",
  partner_sessions: "unlinked",
  import_job_profiles: "unlinked",
};

/**
 * Tables with a person-like column that are not the person's: a developer's own phone line
 * (sign_in_message_lines holds the number an agent texts from), and dashboard users, who are
 * developers' team members and not people of the profile service.
 */
export const NOT_THE_PERSONS_TABLES: Readonly<Record<string, string>> = {
  sign_in_message_lines: "an agent's own provider-owned number",
  developer_members: "a dashboard user's membership (dashboard_user_id), not a profile user",
  api_keys: "a developer's key and the dashboard user who made it (created_by_dashboard_user_id), not a profile user",
};

const confirmSchema = z.string().trim().toLowerCase().pipe(z.literal(DELETE_CONFIRMATION_WORD));

/** Deletes the account after the confirmation word; AccountError invalid without it. False when no such account. */
export async function deleteAccount(input: { userId: string; confirmation: unknown }): Promise<boolean> {
  if (!confirmSchema.safeParse(input.confirmation).success) {
    throw new AccountError("invalid", `Type ${DELETE_CONFIRMATION_WORD} to confirm.`);
  }
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { id: input.userId },
    select: { id: true, plane: true, developerId: true, phoneHash: true, phoneScope: true, email: true },
  });
  if (!user) return false;
  // The provider is asked to revoke each app's grant; what it taught goes with the connection.
  for (const c of await prisma.appConnection.findMany({ where: { userId: user.id }, select: { id: true } })) await deleteAppConnection(c.id);

  const userId = user.id;
  await inTransaction(async (tx) => {
    // Every developer that knew the person hears of it, while their ids and approvals are still there.
    await emitUserDeleted(tx, user);
    // The number's rows, in its namespace only: every sandbox's synthetic user shares one reserved test number.
    if (user.phoneHash) {
      const hash = user.phoneHash;
      await tx.phoneCode.deleteMany({ where: { phoneHash: hash, plane: user.plane, phoneScope: user.phoneScope } });
      await tx.flowSession.deleteMany({
        where: { phoneHash: hash, plane: user.plane, ...(user.plane === "test" ? { developerId: user.developerId } : {}) },
      });
      if (user.plane === "live") await tx.smsOutbox.deleteMany({ where: { phoneHash: hash } });
    }
    if (user.email) await tx.emailOutbox.deleteMany({ where: { to: { equals: user.email, mode: "insensitive" } } });
    await tx.flowSession.deleteMany({ where: { userId } });
    await tx.appConnection.deleteMany({ where: { userId } });
    await tx.connectAttempt.deleteMany({ where: { userId } });
    await tx.connectLink.deleteMany({ where: { userId } });
    await tx.capabilityGrant.deleteMany({ where: { userId } });
    await tx.emailCode.deleteMany({ where: { userId } });
    await tx.oAuthCode.deleteMany({ where: { userId } });
    await tx.signInCode.deleteMany({ where: { userId } });
    // A registration's challenge names the person without a foreign key (it is bound to them, not to a flow).
    await tx.passkeyChallenge.deleteMany({ where: { userId } });
    await tx.partnerSession.updateMany({ where: { userId }, data: { userId: null, importIds: [], connected: [] } });
    await tx.importJobProfile.updateMany({ where: { userId }, data: { userId: null, importId: null } });
    await tx.user.delete({ where: { id: userId } });
  });
  clearUserAccessCache();
  return true;
}
