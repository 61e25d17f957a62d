// GET /v1/agents lists the developer's agents; POST /v1/agents creates one (secret key, no X-Agent).
import { z } from "zod";
import { agentHandleSchema, agentView, createAgent, listAgents } from "@/lib/agents/agents";
import { agentResponse, agentsResponse } from "@/lib/agents/schemas";
import { defineRoute } from "@/lib/api-edge/define-route";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/agents",
  summary: "Lists the developer's agents.",
  responses: { 200: agentsResponse },
  auth: { key: "secret", agent: false, user: "none" },
  handler: async ({ key }) => ({ body: { agents: (await listAgents(key.developerId)).map(agentView) } }),
});

export const POST = defineRoute({
  method: "POST",
  path: "/v1/agents",
  summary: "Creates an agent (secret key, no X-Agent).",
  responses: { 201: agentResponse },
  errors: ["agent_exists"],
  auth: { key: "secret", agent: false, user: "none" },
  body: z.object({ handle: agentHandleSchema, display_name: z.string().trim().min(1).max(100).optional() }),
  handler: async ({ key, body }) => ({
    status: 201,
    body: { agent: agentView(await createAgent({ developerId: key.developerId, handle: body.handle, displayName: body.display_name })) },
  }),
});
