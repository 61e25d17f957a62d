// Every card version the service has published, in one list. A mounted card names its version in
// its resource id, so each one keeps serving for good: a version is added here, never removed
// (lib/mcp/cards/published.json lists what has been published; tests/mcp/card.test.ts holds the two together).
import { connectCardV8 } from "./connect-v8";
import type { CardVersion } from "./types";

export type { CardVersion } from "./types";

/** Every published card version, oldest first. */
export const CARDS: readonly CardVersion[] = [connectCardV8];

/** The connect card service_connect names now: the newest connect version. */
export const CONNECT_CARD: CardVersion = connectCardV8;

export function findCard(uri: string): CardVersion | undefined {
  return CARDS.find((card) => card.uri === uri);
}
