// GET /v1/profile — the user's composed profile, for an agent the user approved.
import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { PROFILE_SECTIONS, readProfile, type ProfileSection } from "@/lib/profile/read";

const sectionsParam = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined))
  .pipe(z.array(z.enum(PROFILE_SECTIONS as [ProfileSection, ...ProfileSection[]])).optional());

export const GET = defineRoute({
  method: "GET",
  path: "/v1/profile",
  auth: { key: "secret", agent: true, user: "required" },
  query: z.object({ sections: sectionsParam }),
  handler: async ({ user, key, query }) => ({
    body: { ...(await readProfile({ userId: user.id, sections: query.sections })), livemode: key.plane === "live" },
  }),
});
