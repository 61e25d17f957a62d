// The wire schemas of the agents routes: an agent as every answer shows it (agentView).
import { z } from "zod";

/** What a developer may set on an agent (PATCH /v1/agents/:handle, the dashboard's agent form). */
export const agentDisplayNameSchema = z.string().trim().min(1).max(100);
export const agentLogoUrlSchema = z
  .string()
  .max(2_048)
  .refine((v) => URL.canParse(v) && new URL(v).protocol === "https:", "an absolute https URL");
export const agentBrandColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, "a colour as #rrggbb");

/** An agent in a response: agentView's shape. */
export const agentSchema = z.strictObject({
  handle: z.string(),
  display_name: z.string(),
  active: z.boolean(),
  created_at: z.iso.datetime(),
  logo_url: z.string().nullable(),
  brand_color: z.string().nullable(),
  sign_in_url: z.string(),
});

/** GET /v1/agents. */
export const agentsResponse = z.strictObject({ agents: z.array(agentSchema) });

/** POST /v1/agents (201) and PATCH /v1/agents/:handle. */
export const agentResponse = z.strictObject({ agent: agentSchema });
