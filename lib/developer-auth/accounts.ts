// Developer accounts as the dashboard sees them: who is a member of which account with which role,
// the account a new address makes on its first sign-in, and the one membership check every dashboard
// page and server action passes before it reads or changes anything of an account.
import { z } from "zod";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { MemberRole } from "../platform/db/generated/enums";
import { createDeveloper } from "../developers/developers";
import { isPersonalMcpAccount } from "../developers/personal-mcp-account";
import { DashboardError } from "./errors";

export const MEMBER_ROLES = ["owner", "member"] as const satisfies readonly MemberRole[];
export const accountNameSchema = z.string().trim().min(1).max(100);
const uuid = z.uuid();

// Serialises changes to one account's members (the last owner) and one user's first account.
export const MEMBERS_LOCK = 72707381;

export interface Membership {
  developerId: string;
  name: string;
  role: MemberRole;
  sandbox: boolean;
}

/** The accounts the dashboard user belongs to, oldest membership first. */
export async function membershipsOf(dashboardUserId: string): Promise<Membership[]> {
  const rows = await (
    await db()
  ).developerMember.findMany({
    where: { dashboardUserId },
    orderBy: [{ createdAt: "asc" }, { developerId: "asc" }],
    select: { role: true, developer: { select: { id: true, name: true, sandbox: true } } },
  });
  return rows.map((r) => ({ developerId: r.developer.id, name: r.developer.name, role: r.role, sandbox: r.developer.sandbox }));
}

/**
 * The account a dashboard page shows: the one the browser last chose (its cookie), when the user is
 * still a member of it, else their first. Null for a user with no account yet.
 */
export function chosenAccount(memberships: Membership[], chosen: string | undefined): Membership | null {
  return memberships.find((m) => m.developerId === chosen) ?? memberships[0] ?? null;
}

/**
 * The one check before anything of an account is read or changed: the dashboard user is a member of
 * it (an owner, with `owner`). Anyone else is told it does not exist, never that it does.
 */
export async function requireMember(
  input: { dashboardUserId: string; developerId: unknown; owner?: boolean },
  tx?: Prisma.TransactionClient,
): Promise<{ developerId: string; role: MemberRole }> {
  const id = uuid.safeParse(input.developerId);
  if (!id.success || isPersonalMcpAccount(id.data)) throw new DashboardError("not_found");
  const member = await (tx ?? (await db())).developerMember.findUnique({
    where: { developerId_dashboardUserId: { developerId: id.data, dashboardUserId: input.dashboardUserId } },
    select: { role: true },
  });
  if (!member) throw new DashboardError("not_found");
  if (input.owner && member.role !== "owner") throw new DashboardError("owner_only");
  return { developerId: id.data, role: member.role };
}

/**
 * A new address's own account: a developer account it owns, named once. Only for a dashboard user
 * who belongs to no account yet (someone invited first joins that account instead).
 */
export async function createFirstAccount(input: { dashboardUserId: string; name: unknown }): Promise<{ developerId: string }> {
  const name = accountNameSchema.safeParse(input.name);
  if (!name.success) throw new DashboardError("invalid_name", undefined, "name");
  return (await db()).$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MEMBERS_LOCK}, hashtext(${input.dashboardUserId}))`;
    const existing = await tx.developerMember.findFirst({ where: { dashboardUserId: input.dashboardUserId }, select: { developerId: true } });
    if (existing) return { developerId: existing.developerId };
    const developer = await createDeveloper({ name: name.data }, tx);
    await tx.developerMember.create({ data: { developerId: developer.id, dashboardUserId: input.dashboardUserId, role: "owner" } });
    return { developerId: developer.id };
  });
}

/** An account's members with their addresses and roles, owners first. */
export async function listMembers(developerId: string) {
  const rows = await (
    await db()
  ).developerMember.findMany({
    where: { developerId },
    orderBy: [{ role: "asc" }, { createdAt: "asc" }],
    select: { role: true, createdAt: true, dashboardUser: { select: { id: true, email: true } } },
  });
  return rows.map((r) => ({ dashboardUserId: r.dashboardUser.id, email: r.dashboardUser.email, role: r.role, since: r.createdAt }));
}

/**
 * Changes a member's role (owners only). The account always keeps an owner: the last one cannot be
 * made a member.
 */
export async function changeMemberRole(input: { actorId: string; developerId: unknown; memberId: unknown; role: unknown }): Promise<void> {
  const role = z.enum(MEMBER_ROLES).safeParse(input.role);
  if (!role.success) throw new DashboardError("invalid_input", undefined, "role");
  await (
    await db()
  ).$transaction(async (tx) => {
    const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId, owner: true }, tx);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MEMBERS_LOCK}, hashtext(${developerId}))`;
    const target = await memberOf(tx, developerId, input.memberId);
    if (target.role === role.data) return;
    if (target.role === "owner") await keepAnOwner(tx, developerId);
    await tx.developerMember.update({ where: { developerId_dashboardUserId: { developerId, dashboardUserId: target.dashboardUserId } }, data: { role: role.data } });
  });
}

/** Removes a member from the account (owners only; never its last owner). */
export async function removeMember(input: { actorId: string; developerId: unknown; memberId: unknown }): Promise<void> {
  await (
    await db()
  ).$transaction(async (tx) => {
    const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId, owner: true }, tx);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MEMBERS_LOCK}, hashtext(${developerId}))`;
    const target = await memberOf(tx, developerId, input.memberId);
    if (target.role === "owner") await keepAnOwner(tx, developerId);
    await tx.developerMember.delete({ where: { developerId_dashboardUserId: { developerId, dashboardUserId: target.dashboardUserId } } });
  });
}

async function memberOf(tx: Prisma.TransactionClient, developerId: string, memberId: unknown) {
  const id = uuid.safeParse(memberId);
  const row = id.success
    ? await tx.developerMember.findUnique({ where: { developerId_dashboardUserId: { developerId, dashboardUserId: id.data } }, select: { dashboardUserId: true, role: true } })
    : null;
  if (!row) throw new DashboardError("not_found");
  return row;
}

/** Refuses a change that would leave the account without an owner (called under the members lock). */
async function keepAnOwner(tx: Prisma.TransactionClient, developerId: string): Promise<void> {
  if ((await tx.developerMember.count({ where: { developerId, role: "owner" } })) <= 1) throw new DashboardError("last_owner");
}
