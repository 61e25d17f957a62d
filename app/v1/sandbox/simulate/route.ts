// POST /v1/sandbox/simulate — records a simulated failure until the next reset (sk_test_).
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { ApiError } from "@/lib/http/errors";
import { isSandboxScenario, simulateScenario } from "@/lib/sandbox/sandbox";
import { simulateResponse } from "@/lib/sandbox/schemas";
import { SANDBOX_SCENARIOS } from "@/lib/sandbox/seed";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/sandbox/simulate",
  summary: "Records a simulated failure until the next reset (sk_test_).",
  responses: { 200: simulateResponse },
  errors: ["unknown_scenario"],
  auth: { key: "secret", agent: false, user: "none", testPlaneOnly: true },
  body: z.object({ scenario: z.string().min(1) }),
  handler: async ({ key, body }) => {
    if (!isSandboxScenario(body.scenario)) {
      throw new ApiError("unknown_scenario", `Unknown scenario '${body.scenario}'.`, { scenarios: SANDBOX_SCENARIOS });
    }
    return { body: await simulateScenario({ developerId: key.developerId, scenario: body.scenario }) };
  },
});
