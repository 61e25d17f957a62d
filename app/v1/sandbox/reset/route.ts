// POST /v1/sandbox/reset — restores the synthetic user's seeded state (sk_test_ + X-Agent).
import { defineRoute } from "@/lib/api-edge/define-route";
import { resetSandbox } from "@/lib/sandbox/sandbox";
import { resetResponse } from "@/lib/sandbox/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/sandbox/reset",
  summary: "Restores the synthetic user's seeded state (sk_test_ + X-Agent).",
  responses: { 200: resetResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: true, user: "none", testPlaneOnly: true },
  handler: async ({ key, agent }) => ({ body: await resetSandbox({ developerId: key.developerId, agentId: agent.id }) }),
});
