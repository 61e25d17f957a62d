// Where the service may send a person's browser after a flow it hosts: only to destinations the
// developer registered (an origin approved with POST /v1/sso/origins or the command-line add-origin).
// One rule for every return address, checked when it is given and again when it is used.
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { normalizeOrigin } from "./developers";

export const DESTINATION_MESSAGES = {
  returnUrlNotRegistered: "return_url must be on an origin approved for this developer: approve it first with POST /v1/sso/origins.",
  returnUrlInvalid: "return_url must be an absolute https URL (http only on localhost), without a fragment or credentials.",
} as const;

/** The URL's origin when it is an absolute https (or localhost http) address with no credentials or fragment. */
function destinationOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password || url.hash || value.includes("#")) return null;
  return normalizeOrigin(url.origin);
}

/** Whether the service may send a browser to `url` for this developer (inside `tx` when given). */
export async function isRegisteredDestination(input: { developerId: string; url: string }, tx?: Prisma.TransactionClient): Promise<boolean> {
  const origin = destinationOrigin(input.url);
  if (!origin) return false;
  const approved = await (tx ?? (await db())).approvedOrigin.findUnique({ where: { developerId_origin: { developerId: input.developerId, origin } } });
  return !!approved;
}

/** Why a return address is refused, or null when it may be used. */
export async function returnUrlProblem(input: { developerId: string; url: string }): Promise<string | null> {
  if (!destinationOrigin(input.url)) return DESTINATION_MESSAGES.returnUrlInvalid;
  return (await isRegisteredDestination(input)) ? null : DESTINATION_MESSAGES.returnUrlNotRegistered;
}
