// GET /v1/import/jobs/:jobId — a bulk import job's status, progress and per-user errors.
import { defineRoute } from "@/lib/api-edge/define-route";
import { importJobSchema } from "@/lib/import-jobs/schemas";
import { getImportJob } from "@/lib/import-jobs/view";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/import/jobs/[jobId]",
  summary: "A bulk import job: its status, progress counts and the users that could not be imported.",
  responses: { 200: importJobSchema },
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  errors: ["not_found"],
  handler: async ({ key, agent, params }) => ({
    body: await getImportJob({ jobId: params.jobId ?? "", developerId: key.developerId, agentId: agent.id, plane: key.plane }),
  }),
});
