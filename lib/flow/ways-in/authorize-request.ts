// What the two ways in that begin at /oauth/authorize share — a relying party's OpenID Connect sign-in
// (./oidc.ts) and an MCP client a person installs (./mcp-client.ts): what the pages read of the
// request, the code the completed flow hands back to the client's callback, and the decline the
// callback hears instead.
import type { Prisma } from "../../platform/db/generated/client";
import type { AuthorizeFlowRequest } from "../../oidc/authorize";
import { issueCode } from "../../oidc/tokens";
import type { WayInName } from "../screens";
import { withParams } from "../urls";
import { PLAIN_TRAITS, type FlowOf, type WayInTraits } from "./types";

type AuthorizeFlow = FlowOf<WayInName, AuthorizeFlowRequest>;

export function authorizeTraits(request: AuthorizeFlowRequest): WayInTraits {
  // A client known only by its metadata document is named by it until its agent exists; an ended
  // flow's page links to the client's own origin.
  return { ...PLAIN_TRAITS, nameWithoutAgent: request.client_document?.display_name ?? null, home: new URL(request.redirect_uri).origin };
}

/** The callback with a new authorization code for the person and the request's state (inside the completing transaction). */
export async function returnWithCode(tx: Prisma.TransactionClient, flow: AuthorizeFlow, userId: string): Promise<string> {
  const { developerId, agentId, request } = flow;
  const clientId = request.client_id;
  if (!developerId || !agentId || !clientId) throw new Error("an authorize request's flow completed without its client and agent");
  const code = await issueCode(
    {
      clientId,
      userId,
      agentId,
      developerId,
      plane: flow.plane,
      redirectUri: request.redirect_uri,
      codeChallenge: request.code_challenge,
      nonce: request.nonce,
      scopes: request.scopes,
    },
    tx,
  );
  return withParams(request.redirect_uri, { code, state: request.state });
}

/** The person declined: the callback gets error=access_denied and the state, no code. */
export async function declineToCallback(flow: AuthorizeFlow): Promise<string> {
  return withParams(flow.request.redirect_uri, { error: "access_denied", state: flow.request.state });
}
