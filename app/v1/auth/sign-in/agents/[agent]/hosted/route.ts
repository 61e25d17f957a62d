// GET /v1/auth/sign-in/agents/:agent/hosted — an active agent's public sign-in metadata: its sign-in
// link, branding, this address, and the publishable key of its plane. No key; limited per IP.
import { agentBySignInName, initialsOf, signInUrl } from "@/lib/agents/agents";
import { currentPublishableKey } from "@/lib/api-keys/api-keys";
import { env } from "@/lib/env";
import { defineRoute } from "@/lib/api-edge/define-route";
import { ApiError } from "@/lib/http/errors";
import { hostedAgentResponse } from "@/lib/sign-in/link-schemas";
import { hostedMetadataLimiter } from "@/lib/sign-in/limits";

/** No active agent answers to this sign-in name. */
const UNKNOWN_SIGN_IN_AGENT = "No active agent has this sign-in address.";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/auth/sign-in/agents/[agent]/hosted",
  summary: "An active agent's public sign-in metadata: sign-in link, branding and publishable key.",
  responses: { 200: hostedAgentResponse },
  errors: ["unknown_agent"],
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: hostedMetadataLimiter, by: "ip" },
  cors: "open",
  handler: async ({ params }) => {
    const agent = await agentBySignInName(params.agent ?? "");
    if (!agent) throw new ApiError("unknown_agent", UNKNOWN_SIGN_IN_AGENT);
    const plane = agent.developer.sandbox ? "test" : "live";
    return {
      body: {
        signInUrl: signInUrl(agent.signInName),
        signInName: agent.signInName,
        displayName: agent.displayName,
        logoUrl: agent.logoUrl,
        initials: initialsOf(agent.displayName),
        brandColor: agent.brandColor,
        metadataUrl: `${env().BASE_URL}/v1/auth/sign-in/agents/${encodeURIComponent(agent.signInName)}/hosted`,
        publishableKey: await currentPublishableKey({ developerId: agent.developerId, plane }),
        plane,
      },
      headers: { "Cache-Control": "public, max-age=60" },
    };
  },
});
