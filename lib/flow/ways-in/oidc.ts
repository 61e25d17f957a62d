// The "oidc" way in: a relying party's OpenID Connect authorize request (lib/oidc/authorize.ts checks
// it). Its flow hands an authorization code and the state back to the registered callback, and asks
// for the person's mailbox after the code when the client wants an address the account cannot prove.
import { z } from "zod";
import { checkAuthorizeRequest, authorizeFlowRequest, type AuthorizeFlowRequest } from "../../oidc/authorize";
import { OAuthError } from "../../oidc/errors";
import { addressProvenOnceFinished } from "../email-once-finished";
import { FLOW_RATE_LIMITED, FlowError } from "../errors";
import { importFirstOrder } from "../screens";
import { startFlow } from "../start";
import { authorizeTraits, declineToCallback, returnWithCode } from "./authorize-request";
import { mcpClient } from "./mcp-client";
import type { WayIn } from "./types";

/** A relying party's request always names its stored client. */
const oidcRequest = authorizeFlowRequest.extend({ client_id: z.string() });

export const oidc: WayIn<"oidc", AuthorizeFlowRequest & { client_id: string }> = {
  name: "oidc",
  request: oidcRequest,
  // A required entry made only of mailboxes puts the mailbox page first.
  screens: (input) => importFirstOrder(input, { mailboxFirst: true }),
  traits: authorizeTraits,
  // After the code, the mailbox page for a client that asked for the email scope when the account's
  // address will not be proven (no mailbox that vouches for one was connected here either).
  mailboxAfterCode: async (flow, userId) => flow.request.scopes.includes("email") && !(await addressProvenOnceFinished(flow, userId)),
  returnTo: returnWithCode,
  declineTo: declineToCallback,
};

/**
 * GET /oauth/authorize: checks the request and starts its flow, a relying party's or an MCP client's.
 * Every error is an OAuthError shown in the browser, the flow-start limit's too: nothing goes to the callback.
 */
export async function openAuthorizeFlow(params: URLSearchParams, ip: string): Promise<{ id: string; browserSecret: string }> {
  const checked = await checkAuthorizeRequest(params, ip);
  const start = { developerId: checked.developerId, agentId: checked.agentId ?? undefined, plane: checked.plane, required: checked.required, ip };
  try {
    if (checked.mcpClient) return await startFlow(mcpClient, { ...start, request: checked.request });
    const { client_id } = checked.request;
    if (!client_id) throw new Error("a relying party's authorize request without its client");
    return await startFlow(oidc, { ...start, request: { ...checked.request, client_id } });
  } catch (err) {
    if (err instanceof FlowError && err.reason === "rate_limited") {
      throw new OAuthError("temporarily_unavailable", FLOW_RATE_LIMITED, 429, { "Retry-After": String(err.retryAfter ?? 60) });
    }
    throw err;
  }
}
