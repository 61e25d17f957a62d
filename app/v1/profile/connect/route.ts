// POST /v1/profile/connect — mint a connect link for a person: to sign in and approve the agent,
// connect an app, allow a capability, or bring their profile.
import { resolveUserToken } from "@/lib/credentials/credentials";
import { defineRoute } from "@/lib/api-edge/define-route";
import { checkReturnUrl, mintConnectLink, personFor } from "@/lib/connect-links/links";
import { connectLinkBody, connectLinkResponse } from "@/lib/connect-links/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/connect",
  summary: "Mint a connect link for a person: to sign in and approve the agent, connect an app, allow a capability, or bring their profile.",
  responses: { 200: connectLinkResponse },
  errors: ["user_required", "invalid_return_url", "rate_limited"],
  auth: { key: "secret", agent: true, user: "none" },
  body: connectLinkBody,
  handler: async ({ req, key, agent, body }) => {
    // A bearer token names the person; otherwise X-User-Id or user_id (the developer's own id), known or not yet.
    const tokenUser = await resolveUserToken(req, { key, agent });
    if (body.return_url !== undefined) await checkReturnUrl({ developerId: key.developerId, url: body.return_url });
    const person = await personFor({
      developerId: key.developerId,
      plane: key.plane,
      agentId: agent.id,
      userId: tokenUser?.id,
      externalId: tokenUser ? null : req.headers.get("x-user-id")?.trim() || body.user_id,
    });
    return {
      body: await mintConnectLink({
        developerId: key.developerId,
        plane: key.plane,
        agent,
        ...person,
        app: body.app,
        capability: body.capability,
        purpose: body.purpose,
        clientName: body.client_name,
        returnUrl: body.return_url,
      }),
    };
  },
});
