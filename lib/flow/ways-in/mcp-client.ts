// The "mcp_client" way in: an MCP client a person installs signs them in at {MCP_URL} through
// /oauth/authorize (./oidc.ts opens both). A client known only by its metadata document and not
// stored yet gets its client and agent as its flow ends (lib/oidc/mcp-clients/documents.ts).
import { authorizeFlowRequest, type AuthorizeFlowRequest } from "../../oidc/authorize";
import { bindDocumentClient } from "../../oidc/mcp-clients/documents";
import { importFirstOrder } from "../screens";
import { authorizeTraits, declineToCallback, returnWithCode } from "./authorize-request";
import type { WayIn } from "./types";

export const mcpClient: WayIn<"mcp_client", AuthorizeFlowRequest> = {
  name: "mcp_client",
  request: authorizeFlowRequest,
  screens: (input) => importFirstOrder(input),
  traits: authorizeTraits,
  async bindAgent(tx, flow) {
    const bound = await bindDocumentClient(tx, { id: flow.id, agentId: flow.agentId, clientId: flow.request.client_id ?? null, request: flow.request });
    return bound && { ...flow, agentId: bound.agentId, request: { ...flow.request, client_id: bound.clientId } };
  },
  returnTo: returnWithCode,
  declineTo: declineToCallback,
};
