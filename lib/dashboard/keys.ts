// API keys in the dashboard: each change passes the membership check, then the same functions the
// command-line tool uses (lib/api-keys). A new key's secret is returned once, to be shown once. Each
// key says who made it; the keys still working that someone no longer a member made can be revoked
// together.
import { z } from "zod";
import { isKeyActive, issueApiKey, KEY_ROTATION_OVERLAP_HOURS, listApiKeys, revokeApiKey, revokeApiKeysOfFormerMember, rotateApiKey } from "../api-keys/api-keys";
import { now as clockNow } from "../platform/clock";
import { listMembers, requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";

export { KEY_ROTATION_OVERLAP_HOURS };

const newKeySchema = z.object({
  kind: z.enum(["secret", "publishable"]),
  plane: z.enum(["live", "test"]),
  name: z
    .string()
    .trim()
    .max(100)
    .transform((v) => v || undefined),
});

export type KeyState = "active" | "rotating" | "revoked";

/** Who made a key, as the keys page says it. */
export type KeyMadeBy = { via: "dashboard"; dashboardUserId: string; email: string; member: boolean } | { via: "command_line" | "sandbox" | "unrecorded" };

/**
 * The account's keys with their state now (active, rotated and still working until revokedAt, or
 * revoked) and who made each: a dashboard user (still a member or not), the command-line tool, a
 * sandbox's provisioning, or unrecorded (made before makers were recorded).
 */
export async function keysOf(developerId: string) {
  const at = clockNow();
  const [keys, members] = await Promise.all([listApiKeys(developerId), listMembers(developerId)]);
  const memberIds = new Set(members.map((m) => m.dashboardUserId));
  return keys.map(({ createdBy, createdVia, ...k }) => {
    const state: KeyState = !k.revokedAt ? "active" : isKeyActive(k.revokedAt, at) ? "rotating" : "revoked";
    const madeBy: KeyMadeBy =
      createdVia === "dashboard" && createdBy
        ? { via: "dashboard", dashboardUserId: createdBy.id, email: createdBy.email, member: memberIds.has(createdBy.id) }
        : { via: createdVia === "command_line" || createdVia === "sandbox" ? createdVia : "unrecorded" };
    return { ...k, state, madeBy };
  });
}

export type DashboardKey = Awaited<ReturnType<typeof keysOf>>[number];

/** People no longer members whose keys still work, with those keys: what the members and keys pages offer to revoke. */
export function formerMembersKeys(keys: DashboardKey[]): Array<{ dashboardUserId: string; email: string; prefixes: string[] }> {
  const byMaker = new Map<string, { dashboardUserId: string; email: string; prefixes: string[] }>();
  for (const k of keys) {
    if (k.state === "revoked" || k.madeBy.via !== "dashboard" || k.madeBy.member) continue;
    const entry = byMaker.get(k.madeBy.dashboardUserId) ?? { dashboardUserId: k.madeBy.dashboardUserId, email: k.madeBy.email, prefixes: [] };
    entry.prefixes.push(k.prefix);
    byMaker.set(k.madeBy.dashboardUserId, entry);
  }
  return [...byMaker.values()];
}

export async function createKey(input: { actorId: string; developerId: unknown; kind: unknown; plane: unknown; name: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const parsed = newKeySchema.safeParse({ kind: input.kind, plane: input.plane, name: input.name ?? "" });
  if (!parsed.success) throw new DashboardError("invalid_input");
  return issueApiKey({ developerId, ...parsed.data, createdBy: { via: "dashboard", dashboardUserId: input.actorId } });
}

export async function rotateKey(input: { actorId: string; developerId: unknown; keyId: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const rotated = typeof input.keyId === "string" ? await rotateApiKey({ developerId, keyId: input.keyId, createdBy: { via: "dashboard", dashboardUserId: input.actorId } }) : null;
  if (!rotated) throw new DashboardError("key_not_rotatable");
  return rotated;
}

export async function revokeKey(input: { actorId: string; developerId: unknown; keyId: unknown }): Promise<void> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const id = z.uuid().safeParse(input.keyId);
  if (!id.success || (await revokeApiKey({ developerId, idOrPrefix: id.data })) === 0) throw new DashboardError("not_found");
}

/**
 * Revokes, at once, every key still working (rotated ones in their overlap too) that a dashboard user
 * who is no longer a member of the account made in it. Refused (not_found) for a current member, or
 * someone who made no such key: a member's keys are revoked one by one. Returns how many it revoked.
 */
export async function revokeFormerMemberKeys(input: { actorId: string; developerId: unknown; madeBy: unknown }): Promise<{ revoked: number; email: string }> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const madeBy = z.uuid().safeParse(input.madeBy);
  const former = madeBy.success ? formerMembersKeys(await keysOf(developerId)).find((f) => f.dashboardUserId === madeBy.data) : undefined;
  if (!former) throw new DashboardError("not_found");
  const revoked = await revokeApiKeysOfFormerMember({ developerId, dashboardUserId: former.dashboardUserId });
  return { revoked, email: former.email };
}
