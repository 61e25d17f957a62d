// A flow's screen order and what its way in says about it, asked of its way in (lib/flow/ways-in/)
// from the request and what the person chose: one function each, for the pages, the steps and the tests.
import { screenAfter, type OrderInput, type Screen, type WayInName } from "./screens";
import { wayOf, type WayFlow, type WayInRequests, type WayInTraits } from "./ways-in";

/** A way in with its request: all a way in's traits and order are read from. */
export interface WayInRequest<K extends WayInName> {
  wayIn: K;
  request: WayInRequests[K];
}

/** The screens in order, for a way in's request and what the person chose. */
export function screenSequence<K extends WayInName>(input: WayInRequest<K> & OrderInput): Screen[] {
  return wayOf(input).screens(input, input.request);
}

export function firstScreen<K extends WayInName>(input: WayInRequest<K> & OrderInput): Screen {
  return screenSequence(input)[0] ?? "receipt";
}

/** A flow's order as it stands: with the mailbox page after the code once the way in asked for it. */
export function screensOf<K extends WayInName>(flow: WayFlow<K>): Screen[] {
  return screenSequence({ ...flow, mailboxAfterCode: flow.screen === "mailbox" && !!flow.userId });
}

/** The screen after `current` on the person's way (the receipt is last). */
export function nextScreen<K extends WayInName>(flow: WayFlow<K>, current: Screen): Screen {
  return screenAfter(screensOf(flow), current);
}

/** What the pages and steps read of a flow's request (lib/flow/ways-in/types.ts WayInTraits). */
export function traitsOf<K extends WayInName>(flow: WayInRequest<K>): WayInTraits {
  return wayOf(flow).traits(flow.request);
}
