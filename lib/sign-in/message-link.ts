// Text-back links are signed: POST /v1/auth/sign-in/message-url is the only maker of a link with
// delivery=message, and the sign-in host opens one only when its parameters carry the service's
// signature and have not expired. Nobody can forge a journey, a message body or a completion address
// for an agent's line, and the signature names the key plane the link was made in.
import { createHash, createHmac } from "node:crypto";
import { deriveKey, safeEqual } from "../platform/crypto";
import type { Plane } from "../platform/db/generated/enums";

/** How long a text-back link can be opened after it was made. */
export const MESSAGE_LINK_TTL_SECONDS = 24 * 60 * 60;
const PURPOSE = "sign-in.message-link";

/** The text signed: the agent, the plane, the path's form, and every query parameter but sig, sorted. */
function signedText(input: { agentId: string; plane: Plane; reconnect: boolean; params: URLSearchParams }): string {
  const pairs = [...input.params].filter(([k]) => k !== "sig").sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return [input.agentId, input.plane, input.reconnect ? "reconnect" : "signin", new URLSearchParams(pairs).toString()].join("\n");
}

export function signMessageLink(input: { agentId: string; plane: Plane; reconnect: boolean; params: URLSearchParams }): string {
  return createHmac("sha256", deriveKey(PURPOSE)).update(signedText(input)).digest("base64url");
}

/**
 * The plane a text-back link was signed for, or null when its signature is missing or wrong or it has
 * expired. `planes` are the planes it may be for (both, unless the link names a publishable key).
 */
export function verifiedMessageLinkPlane(input: { agentId: string; reconnect: boolean; params: URLSearchParams; planes: readonly Plane[]; now: Date }): Plane | null {
  const sig = input.params.get("sig") ?? "";
  const exp = Number(input.params.get("exp"));
  if (!sig || !Number.isInteger(exp) || exp * 1000 <= input.now.getTime()) return null;
  return input.planes.find((plane) => safeEqual(sig, signMessageLink({ ...input, plane }))) ?? null;
}

/** What makes one link one: the completion callback of a text-back link is sent for the first flow to finish it only. */
export function messageLinkHash(sig: string): string {
  return createHash("sha256").update(sig).digest("hex");
}
