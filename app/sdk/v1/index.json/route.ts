// GET {BASE_URL}/sdk/v1/index.json — the SDK files this service hands out, so docs and people find the
// current file names: public, any origin.
import { defineRoute } from "@/lib/api-edge/define-route";
import { sdkIndexAnswer, sdkIndexResponse } from "@/lib/sdk/files";

export const GET = defineRoute({
  method: "GET",
  path: "/sdk/v1/index.json",
  summary: "The SDK files this service serves: each with its version, size, SHA-256, integrity value and install command.",
  responses: { 200: sdkIndexResponse, 304: null },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: ({ req }) => sdkIndexAnswer(req),
});
