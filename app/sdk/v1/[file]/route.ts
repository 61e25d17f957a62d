// GET and HEAD {BASE_URL}/sdk/v1/<file> — an SDK file (the client library's npm tarball, the Python
// wheel), by a name that carries its version: public, any origin, cached for good.
import { defineRoute } from "@/lib/api-edge/define-route";
import { sdkFileAnswer } from "@/lib/sdk/files";

export const GET = defineRoute({
  method: "GET",
  path: "/sdk/v1/[file]",
  summary: "An SDK file named by /sdk/v1/index.json (application/gzip for an npm tarball, application/zip for a wheel), cached for good under its versioned name.",
  responses: { 200: null, 304: null },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  errors: ["not_found"],
  handler: ({ req, params }) => sdkFileAnswer(req, params.file ?? ""),
});
export const HEAD = GET;
