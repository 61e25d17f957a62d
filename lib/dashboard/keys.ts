// API keys in the dashboard: each change passes the membership check, then the same functions the
// command-line tool uses (lib/api-keys). A new key's secret is returned once, to be shown once.
import { z } from "zod";
import { isKeyActive, issueApiKey, KEY_ROTATION_OVERLAP_HOURS, listApiKeys, revokeApiKey, rotateApiKey } from "../api-keys/api-keys";
import { now as clockNow } from "../clock";
import { requireMember } from "../developer-auth/accounts";
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

/** The account's keys with their state now: active, rotated and still working until `stopsAt`, or revoked. */
export async function keysOf(developerId: string) {
  const at = clockNow();
  return (await listApiKeys(developerId)).map((k) => {
    const state: KeyState = !k.revokedAt ? "active" : isKeyActive(k.revokedAt, at) ? "rotating" : "revoked";
    return { ...k, state };
  });
}

export async function createKey(input: { actorId: string; developerId: unknown; kind: unknown; plane: unknown; name: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const parsed = newKeySchema.safeParse({ kind: input.kind, plane: input.plane, name: input.name ?? "" });
  if (!parsed.success) throw new DashboardError("invalid_input");
  return issueApiKey({ developerId, ...parsed.data });
}

export async function rotateKey(input: { actorId: string; developerId: unknown; keyId: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const rotated = typeof input.keyId === "string" ? await rotateApiKey({ developerId, keyId: input.keyId }) : null;
  if (!rotated) throw new DashboardError("key_not_rotatable");
  return rotated;
}

export async function revokeKey(input: { actorId: string; developerId: unknown; keyId: unknown }): Promise<void> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const id = z.uuid().safeParse(input.keyId);
  if (!id.success || (await revokeApiKey({ developerId, idOrPrefix: id.data })) === 0) throw new DashboardError("not_found");
}
