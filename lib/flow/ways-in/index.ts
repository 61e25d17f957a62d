// The ways in, by name: the one list the flow's core reads. A new way in is one module in this folder
// exporting its WayIn (./types.ts) and one line here (and its name in the database's FlowWayIn).
import type { WayInName } from "../screens";
import { connect } from "./connect";
import { mcpClient } from "./mcp-client";
import { oidc } from "./oidc";
import { partner } from "./partner";
import { profileSignup } from "./profile-signup";
import { signInLink } from "./sign-in-link";
import type { FlowOf, RequestOf, WayIn } from "./types";

const LIST = {
  oidc,
  mcp_client: mcpClient,
  profile_signup: profileSignup,
  connect,
  sign_in_link: signInLink,
  partner,
} satisfies Record<WayInName, unknown>;

/** Each way in's request, as its flows store it. */
export type WayInRequests = { [K in WayInName]: RequestOf<(typeof LIST)[K]> };

export const WAYS_IN: { readonly [K in WayInName]: WayIn<K, WayInRequests[K]> } = LIST;

/** A flow of the way in K, with its request. */
export type WayFlow<K extends WayInName> = FlowOf<K, WayInRequests[K]>;

/** A flow, as stored and parsed: one of the ways in, with that way in's request. */
export type Flow = { [K in WayInName]: WayFlow<K> }[WayInName];

/**
 * The way in a flow (or anything carrying its way in) came by. Generic in K so that a flow of one way
 * in is handed only to that way in's hooks; called with a Flow, K is every way in at once.
 */
export function wayOf<K extends WayInName>(flow: { wayIn: K }): WayIn<K, WayInRequests[K]> {
  return WAYS_IN[flow.wayIn];
}

export type { FlowCore, FlowOf, Finishing, WayIn, WayInTraits } from "./types";
