// GET {BASE_URL}/sdk/v1 — the SDK files this service hands out (as /sdk/v1/index.json): public, any origin.
import { defineRoute } from "@/lib/api-edge/define-route";
import { sdkIndexAnswer, sdkIndexResponse } from "@/lib/sdk/files";

export const GET = defineRoute({
  method: "GET",
  path: "/sdk/v1",
  summary: "The SDK files this service serves (the same listing as /sdk/v1/index.json): each with its version, size, SHA-256, integrity value and install command.",
  responses: { 200: sdkIndexResponse, 304: null },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: ({ req }) => sdkIndexAnswer(req),
});
