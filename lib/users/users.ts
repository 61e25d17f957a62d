// Users: the service's own user id (UUID), per plane; linked to developers by their own ids.
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
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

type ExternalIdBinding = { developerId: string; plane: Plane; externalId: string; userId: string };

/**
 * Links the developer's own id for a user (X-User-Id) within one plane; inside `tx` when given. The
 * developer's own server decides here (POST /v1/profile/link, with the access token of the person's
 * sign-in through its own client), so an id it links again moves to the person who just signed in.
 */
export async function linkExternalId(input: ExternalIdBinding, tx?: Prisma.TransactionClient) {
  const link = await (tx ?? (await db())).externalUserId.upsert({
    where: { developerId_plane_externalId: { developerId: input.developerId, plane: input.plane, externalId: input.externalId } },
    create: input,
    update: { userId: input.userId },
  });
  clearUserAccessCache();
  return link;
}

/**
 * Binds the developer's id to a person who proved their number in a connect link's flow, only while no
 * account holds it: whoever else later finishes a link for the same id changes nothing. True if bound.
 */
export async function bindExternalIdOnce(input: ExternalIdBinding, tx: Prisma.TransactionClient): Promise<boolean> {
  const { count } = await tx.externalUserId.createMany({ data: [input], skipDuplicates: true });
  if (count) clearUserAccessCache();
  return count > 0;
}
