// Whether an account's address will be proven once a flow finishes and the connections made in it join
// the account: what finishing does to the account's connections and address (attachFlowConnections and
// recordMailboxAddress, lib/connectors/connections.ts), worked out from what is stored now, then the one
// decision (lib/person-auth/email-proof.ts). It only reads: the mailbox page asks it while rendering.
import { addressProven, owningMailboxOf } from "../person-auth/email-proof";
import { connectionsOnceJoined, mailboxAddressOf } from "../connectors/connections";
import { db } from "../platform/db";

export async function addressProvenOnceFinished(flow: { id: string }, userId: string): Promise<boolean> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true, emailProof: true, plane: true, synthetic: true } });
  if (!user) return false;
  const rows = await prisma.appConnection.findMany({
    where: { OR: [{ userId }, { flowId: flow.id, userId: null }] },
    select: { app: true, provider: true, status: true, accountEmail: true, accountId: true, createdAt: true, userId: true },
  });
  const joined = connectionsOnceJoined(
    rows.filter((r) => r.userId !== null),
    rows.filter((r) => r.userId === null),
  );
  const email = user.email ?? mailboxAddressOf(joined);
  return addressProven({ email, email_proof: user.emailProof, plane: user.plane, owning_mailbox: owningMailboxOf({ email, synthetic: user.synthetic }, joined) });
}
