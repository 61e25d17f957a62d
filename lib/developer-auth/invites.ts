// Invitations to a developer account: an owner names an address and a role; the address gets an
// e-mail with a link carrying a token (stored as a keyed hash), valid 7 days and accepted once, by
// someone signed in to the dashboard with that very address.
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { keyedHash, randomBase62 } from "../platform/crypto";
import { db } from "../platform/db";
import { emailDriver, EmailSendError } from "../email";
import { env } from "../env";
import { MEMBER_ROLES, MEMBERS_LOCK, requireMember } from "./accounts";
import { dashboardEmail } from "./codes";
import { DashboardError } from "./errors";

export const INVITE_TTL_DAYS = 7;
export const INVITE_PATH = "/dashboard/invite";
const TOKEN_PURPOSE = "developer-invite";
const TOKEN_LENGTH = 40;

const hashToken = (token: string) => keyedHash(TOKEN_PURPOSE, token);
const tokenShape = (t: unknown): t is string => typeof t === "string" && t.length === TOKEN_LENGTH && /^[A-Za-z0-9]+$/.test(t);

/** Invites an address to the account with a role (owners only); an earlier pending invitation to it is withdrawn. */
export async function inviteMember(input: { actorId: string; developerId: unknown; email: unknown; role: unknown }): Promise<{ email: string }> {
  let email: string;
  try {
    email = dashboardEmail(input.email);
  } catch (err) {
    if (err instanceof DashboardError) throw new DashboardError(err.reason, undefined, "email");
    throw err;
  }
  const role = z.enum(MEMBER_ROLES).safeParse(input.role);
  if (!role.success) throw new DashboardError("invalid_input", undefined, "role");
  const prisma = await db();
  const token = randomBase62(TOKEN_LENGTH);
  const at = clockNow();
  const { name, inviteId } = await prisma.$transaction(async (tx) => {
    const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId, owner: true }, tx);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MEMBERS_LOCK}, hashtext(${developerId}))`;
    const already = await tx.developerMember.count({ where: { developerId, dashboardUser: { email } } });
    if (already) throw new DashboardError("already_member", undefined, "email");
    await tx.developerInvite.updateMany({ where: { developerId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: at } });
    const invite = await tx.developerInvite.create({
      data: {
        developerId,
        email,
        role: role.data,
        tokenHash: hashToken(token),
        invitedById: input.actorId,
        createdAt: at,
        expiresAt: new Date(at.getTime() + INVITE_TTL_DAYS * 86_400_000),
      },
      select: { id: true, developer: { select: { name: true } } },
    });
    return { name: invite.developer.name, inviteId: invite.id };
  });
  try {
    await emailDriver().send({
      to: email,
      subject: `You are invited to ${name} on Profile Service`,
      text:
        `You are invited to join the developer account "${name}" on Profile Service as ${role.data === "owner" ? "an owner" : "a member"}.\n\n` +
        `Open this link and sign in with this address to accept:\n\n${env().BASE_URL}${INVITE_PATH}?token=${token}\n\n` +
        `The invitation expires in ${INVITE_TTL_DAYS} days. If you did not expect it, ignore this email.`,
    });
  } catch (err) {
    await prisma.developerInvite.delete({ where: { id: inviteId } });
    if (err instanceof EmailSendError) throw new DashboardError("send_failed");
    throw err;
  }
  return { email };
}

/** The account's pending invitations (not accepted, withdrawn or expired), newest first. */
export async function pendingInvites(developerId: string) {
  return (await db()).developerInvite.findMany({
    where: { developerId, acceptedAt: null, revokedAt: null, expiresAt: { gt: clockNow() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
  });
}

/** Withdraws a pending invitation (owners only). */
export async function withdrawInvite(input: { actorId: string; developerId: unknown; inviteId: unknown }): Promise<void> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId, owner: true });
  const id = z.uuid().safeParse(input.inviteId);
  const res = id.success
    ? await (await db()).developerInvite.updateMany({ where: { id: id.data, developerId, acceptedAt: null, revokedAt: null }, data: { revokedAt: clockNow() } })
    : { count: 0 };
  if (res.count !== 1) throw new DashboardError("not_found");
}

/** What the invitation page shows about a token: the account, the address and the role; null when it is not valid. */
export async function inviteByToken(token: unknown) {
  if (!tokenShape(token)) return null;
  const invite = await (
    await db()
  ).developerInvite.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { email: true, role: true, acceptedAt: true, revokedAt: true, expiresAt: true, developer: { select: { name: true } } },
  });
  if (!invite || invite.acceptedAt || invite.revokedAt || invite.expiresAt <= clockNow()) return null;
  return { email: invite.email, role: invite.role, accountName: invite.developer.name };
}

/**
 * Accepts an invitation as the signed-in dashboard user, whose address must be the invited one. Once:
 * the acceptance is a conditional update. Someone already a member keeps their membership as it is.
 */
export async function acceptInvite(input: { dashboardUserId: string; token: unknown }): Promise<{ developerId: string }> {
  if (!tokenShape(input.token)) throw new DashboardError("invite_invalid");
  const tokenHash = hashToken(input.token);
  return (await db()).$transaction(async (tx) => {
    const user = await tx.dashboardUser.findUnique({ where: { id: input.dashboardUserId }, select: { email: true } });
    const invite = await tx.developerInvite.findUnique({ where: { tokenHash }, select: { id: true, developerId: true, email: true, role: true } });
    if (!user || !invite) throw new DashboardError("invite_invalid");
    if (invite.email !== user.email) throw new DashboardError("invite_other_address");
    const at = clockNow();
    const taken = await tx.developerInvite.updateMany({ where: { id: invite.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: at } }, data: { acceptedAt: at } });
    if (taken.count !== 1) throw new DashboardError("invite_invalid");
    await tx.developerMember.upsert({
      where: { developerId_dashboardUserId: { developerId: invite.developerId, dashboardUserId: input.dashboardUserId } },
      create: { developerId: invite.developerId, dashboardUserId: input.dashboardUserId, role: invite.role },
      update: {},
    });
    return { developerId: invite.developerId };
  });
}
