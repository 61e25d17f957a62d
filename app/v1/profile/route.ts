// GET /v1/profile — the user's composed profile, or one box of memories, for an approved agent.
import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { PROFILE_SECTIONS, readBox, readProfile, type ProfileSection } from "@/lib/profile/read";
import { profileResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

const sectionsParam = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined))
  .pipe(z.array(z.enum(PROFILE_SECTIONS as [ProfileSection, ...ProfileSection[]])).optional());

export const GET = defineRoute({
  method: "GET",
  path: "/v1/profile",
  summary: "The user's composed profile, or one box of memories, for an approved agent.",
  responses: { 200: profileResponse },
  errors: ["commit_required"],
  auth: { key: "secret", agent: true, user: "required", scope: "profile.read" satisfies ProfileToolScope },
  livemode: true,
  query: z.object({
    sections: sectionsParam,
    box: z.string().trim().min(1).max(80).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  }),
  handler: async ({ user, agent, query }) => ({
    body: query.box
      ? await readBox({ userId: user.id, agentId: agent.id, box: query.box, page: query.page })
      : await readProfile({ userId: user.id, agentId: agent.id, sections: query.sections }),
  }),
});
