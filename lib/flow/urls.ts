// Where a flow sends the browser: its own page, the service's home, and a callback with the
// parameters a way in hands back (a code and the state, or error=access_denied).
import { env } from "../env";

/** Where the hosted flow for a flow id lives. */
export function flowUrl(flowId: string): string {
  return `${env().BASE_URL}/flow/${flowId}`;
}

/** Where the person goes when a flow with no app to go back to ends (the service's own sign-up, a text-back link). */
export function profileHome(): string {
  return `${env().BASE_URL}/`;
}

/** The callback URL with the given parameters added to whatever query it already has (null ones left out). */
export function withParams(callback: string, params: Record<string, string | null>): string {
  const url = new URL(callback);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}
