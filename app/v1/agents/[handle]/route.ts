// PATCH /v1/agents/:handle — change an agent's display name, branding or whether it is active
// (secret key, no X-Agent). The answer carries sign_in_url, like create and list.
import { z } from "zod";
import { agentBrandColorSchema, agentDisplayNameSchema, agentLogoUrlSchema, agentResponse } from "@/lib/agents/schemas";
import { agentView, updateAgent } from "@/lib/agents/agents";
import { defineRoute } from "@/lib/api-edge/define-route";
import { ApiError, MESSAGES } from "@/lib/http/errors";

export const PATCH = defineRoute({
  method: "PATCH",
  path: "/v1/agents/[handle]",
  summary: "Update an agent's display name, logo, colour or active state.",
  responses: { 200: agentResponse },
  errors: ["unknown_agent"],
  auth: { key: "secret", agent: false, user: "none" },
  body: z
    .strictObject({
      display_name: agentDisplayNameSchema.optional(),
      logo_url: agentLogoUrlSchema.nullable().optional(),
      brand_color: agentBrandColorSchema.nullable().optional(),
      active: z.boolean().optional(),
    })
    .refine((b) => Object.keys(b).length > 0, "name at least one field to change"),
  handler: async ({ key, params, body }) => {
    const agent = await updateAgent({
      developerId: key.developerId,
      handle: params.handle ?? "",
      displayName: body.display_name,
      logoUrl: body.logo_url,
      brandColor: body.brand_color?.toLowerCase() ?? body.brand_color,
      active: body.active,
    });
    if (!agent) throw new ApiError("unknown_agent", MESSAGES.unknownAgent);
    return { body: { agent: agentView(agent) } };
  },
});
