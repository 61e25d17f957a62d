// GET /api/health — liveness: 200 while the process serves requests, whatever the database does
// (GET /api/ready says whether this instance should get traffic).
import { defineRoute } from "@/lib/api-edge/define-route";
import { healthResponse } from "@/lib/platform/health";

export const GET = defineRoute({
  method: "GET",
  path: "/api/health",
  summary: "Liveness: 200 while the process serves requests. It does not ask the database; GET /api/ready does.",
  responses: { 200: healthResponse },
  auth: { key: "none", agent: false, user: "none" },
  handler: async () => ({ status: 200, body: { status: "ok" as const } }),
});
