// Users: the service's own user id (UUID), per plane; linked to developers by their own ids.
import { db } from "../db";
import type { Plane } from "../db/generated/enums";
import { clearUserAccessCache } from "./approvals";
import { phoneDigest } from "./phone";

export async function createUser(input: { plane: Plane; phone?: string; developerId?: string; name?: string }) {
  return (await db()).user.create({
    data: {
      plane: input.plane,
      name: input.name,
      // Live phone numbers share one namespace; a test-plane user's number is unique within its developer.
      ...(input.phone ? { ...phoneDigest(input.phone), phoneScope: input.plane === "test" ? (input.developerId ?? "") : "" } : {}),
      developerId: input.plane === "test" ? input.developerId : undefined,
    },
  });
}

/** Links the developer's own id for a user (X-User-Id) within one plane. */
export async function linkExternalId(input: { developerId: string; plane: Plane; externalId: string; userId: string }) {
  const link = await (await db()).externalUserId.upsert({
    where: { developerId_plane_externalId: { developerId: input.developerId, plane: input.plane, externalId: input.externalId } },
    create: input,
    update: { userId: input.userId },
  });
  clearUserAccessCache();
  return link;
}
