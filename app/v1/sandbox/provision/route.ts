// POST /v1/sandbox/provision — test keys, an agent and a pre-linked synthetic user, no signup.
import { defineRoute } from "@/lib/api-edge/define-route";
import { sandboxProvisionLimiter } from "@/lib/sandbox/limits";
import { provisionSandbox } from "@/lib/sandbox/sandbox";
import { provisionResponse } from "@/lib/sandbox/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/sandbox/provision",
  summary: "Test keys, an agent and a pre-linked synthetic user, no signup.",
  responses: { 201: provisionResponse },
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: sandboxProvisionLimiter, by: "ip" },
  handler: async () => ({ status: 201, body: await provisionSandbox() }),
});
