// POST /v1/import/profiles — a bulk import job: many of the developer's users at once.
import { defineRoute } from "@/lib/api-edge/define-route";
import { importBodyLimit, submitImportJob } from "@/lib/import-jobs/submit";
import { importJobSchema, importProfilesBody } from "@/lib/import-jobs/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/import/profiles",
  summary: "A bulk import job: many users' profiles and conversations, imported by the job workers.",
  responses: { 200: importJobSchema, 202: importJobSchema },
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  body: importProfilesBody,
  invalidCode: "invalid_format",
  bodyLimit: importBodyLimit,
  errors: ["quota_exceeded", "rate_limited", "idempotency_key_reused"],
  handler: async ({ key, agent, body }) => {
    const { status, job } = await submitImportJob({ key, agent, body });
    return { status, body: job };
  },
});
