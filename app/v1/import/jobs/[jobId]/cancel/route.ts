// POST /v1/import/jobs/:jobId/cancel — stops a bulk import job before its next chunk; what it wrote stays.
import { defineRoute } from "@/lib/api-edge/define-route";
import { importJobSchema } from "@/lib/import-jobs/schemas";
import { cancelImportJob } from "@/lib/import-jobs/view";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/import/jobs/[jobId]/cancel",
  summary: "Cancels a bulk import job: it stops before its next chunk and keeps what it imported.",
  responses: { 200: importJobSchema },
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  errors: ["not_found"],
  handler: async ({ key, agent, params }) => ({
    body: await cancelImportJob({ jobId: params.jobId ?? "", developerId: key.developerId, agentId: agent.id, plane: key.plane }),
  }),
});
