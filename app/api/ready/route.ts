// GET /api/ready — 200 while this instance should get traffic: the database answers and no shutdown
// has begun; 503 otherwise. A load balancer probes this; GET /api/health says the process is up.
import { defineRoute } from "@/lib/api-edge/define-route";
import { checkReadiness, notReadyResponse, readyResponse } from "@/lib/platform/health";

export const GET = defineRoute({
  method: "GET",
  path: "/api/ready",
  summary: "200 while the database answers and no shutdown has begun; 503 otherwise.",
  responses: { 200: readyResponse, 503: notReadyResponse },
  auth: { key: "none", agent: false, user: "none" },
  handler: async () => {
    const ready = await checkReadiness();
    return { status: ready.ready ? 200 : 503, body: { status: ready.status, database: ready.database } };
  },
});
