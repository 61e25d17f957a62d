// GET {MCP_URL}/connect/<id>/status — { status: pending | approved | expired }. The link id is the
// credential; readable from any origin (the connect card polls it).
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/api-edge/define-route";
import { ApiError } from "@/lib/http/errors";
import { linkStatus } from "@/lib/connect-links/links";
import { linkStatusResponse } from "@/lib/connect-links/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/personal-mcp/connect/[linkId]/status",
  summary: "A connect link's status: pending, approved or expired.",
  responses: { 200: linkStatusResponse },
  errors: ["not_found"],
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: async ({ params }) => {
    const status = await linkStatus(params.linkId ?? "");
    if (!status) throw new ApiError("not_found", "No connect link with this id.");
    return { body: { status } };
  },
});

export const OPTIONS = () => preflight("open");
