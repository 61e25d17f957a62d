// Sign-in tickets: once a code (or a provider) has proven who is signing in, the server hands its
// next-auth instance a sealed ticket naming them, valid one minute, which never leaves the server. One
// rule for the person's session and the developer dashboard's, each under its own purpose.
import { now as clockNow } from "../platform/clock";
import { openSecret, sealSecret } from "../platform/crypto";

const TICKET_TTL_MS = 60_000;

/** A ticket naming `id`, sealed under `purpose`. */
export function sealTicket(purpose: string, id: string): string {
  return sealSecret(purpose, JSON.stringify({ u: id, e: clockNow().getTime() + TICKET_TTL_MS }));
}

/** The id a ticket sealed under `purpose` names, or null when it is not one of ours or has expired. */
export function openTicketOf(purpose: string, ticket: unknown): string | null {
  if (typeof ticket !== "string") return null;
  try {
    const { u, e } = JSON.parse(openSecret(purpose, ticket)) as { u?: unknown; e?: unknown };
    return typeof u === "string" && typeof e === "number" && e > clockNow().getTime() ? u : null;
  } catch {
    return null;
  }
}
