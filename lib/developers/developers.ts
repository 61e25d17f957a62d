// Developer accounts: the tenant every key, agent, origin and developer-side user id belongs to.
import { z } from "zod";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { ImportTier } from "../platform/db/generated/enums";
import { isPersonalMcpAccount, PERSONAL_MCP_DEVELOPER_ID } from "./personal-mcp-account";

export const IMPORT_TIERS = ["free", "pro", "scale", "enterprise"] as const satisfies readonly ImportTier[];

/** Creates a developer account (inside `tx` when given). */
export async function createDeveloper(input: { name: string; importTier?: ImportTier }, tx?: Prisma.TransactionClient) {
  return (tx ?? (await db())).developer.create({ data: { name: input.name, importTier: input.importTier ?? "free" } });
}

export async function findDeveloper(idOrName: string) {
  const prisma = await db();
  // The personal MCP clients' account is the service's own: no keys, agents or origins are made for it here.
  if (z.uuid().safeParse(idOrName).success) return isPersonalMcpAccount(idOrName) ? null : prisma.developer.findUnique({ where: { id: idOrName } });
  const matches = await prisma.developer.findMany({ where: { name: idOrName, id: { not: PERSONAL_MCP_DEVELOPER_ID } }, take: 2 });
  if (matches.length > 1) throw new Error(`More than one developer is named '${idOrName}'; use the id.`);
  return matches[0] ?? null;
}

export async function listDevelopers() {
  return (await db()).developer.findMany({ where: { id: { not: PERSONAL_MCP_DEVELOPER_ID } }, orderBy: { createdAt: "asc" } });
}

/** Whether the developer's partner links with flow linked_account ask for phone and code before the import screen (off by default). */
export async function setPartnerPhoneFirst(input: { developerId: string; on: boolean }) {
  return (await db()).developer.update({ where: { id: input.developerId }, data: { partnerPhoneFirst: input.on }, select: { partnerPhoneFirst: true } });
}

/** Approves an origin for the developer's SSO clients (https, or http on localhost / 127.0.0.1). */
export async function addOrigin(input: { developerId: string; origin: string }) {
  const origin = normalizeOrigin(input.origin);
  if (!origin) throw new Error("origin must be an https origin (or localhost)");
  await (
    await db()
  ).approvedOrigin.upsert({
    where: { developerId_origin: { developerId: input.developerId, origin } },
    create: { developerId: input.developerId, origin },
    update: {},
  });
  return origin;
}

/** The developer's approved origins, oldest first. */
export async function listOrigins(developerId: string) {
  return (await db()).approvedOrigin.findMany({ where: { developerId }, orderBy: [{ createdAt: "asc" }, { origin: "asc" }], select: { id: true, origin: true, createdAt: true } });
}

/**
 * Withdraws an approved origin: its callbacks can no longer be added with the publishable key, and no
 * browser is sent to a return address on it from now on. Returns whether the developer had it.
 */
export async function removeOrigin(input: { developerId: string; origin: string }): Promise<boolean> {
  const res = await (await db()).approvedOrigin.deleteMany({ where: { developerId: input.developerId, origin: input.origin } });
  return res.count > 0;
}

/** The canonical origin of an https (or localhost http) address, or null when it is not one. */
export function normalizeOrigin(value: string): string | null {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return null;
  }
  const local = u.hostname === "localhost" || u.hostname === "127.0.0.1";
  if (u.protocol !== "https:" && !(u.protocol === "http:" && local)) return null;
  if (u.username || u.password || (u.pathname !== "/" && u.pathname !== "") || u.search || u.hash) return null;
  return u.origin;
}

/** Sets the developer's bulk import tier (lib/import-jobs/limits.ts): it applies to the next job submitted. */
export async function setImportTier(input: { developerId: string; tier: ImportTier }) {
  return (await db()).developer.update({ where: { id: input.developerId }, data: { importTier: input.tier }, select: { name: true, importTier: true } });
}
