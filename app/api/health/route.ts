// GET /api/health — 200 when the database answers, 503 when it does not.
import { defineRoute } from "@/lib/api-edge/define-route";
import { checkHealth, healthResponse, healthUnavailableResponse } from "@/lib/platform/health";

export const GET = defineRoute({
  method: "GET",
  path: "/api/health",
  summary: "200 when the database answers, 503 when it does not.",
  responses: { 200: healthResponse, 503: healthUnavailableResponse },
  auth: { key: "none", agent: false, user: "none" },
  handler: async () => {
    const health = await checkHealth();
    return { status: health.ok ? 200 : 503, body: { status: health.ok ? "ok" : "unavailable", database: health.database } };
  },
});
