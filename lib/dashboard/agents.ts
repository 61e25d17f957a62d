// Agents in the dashboard: the membership check, then lib/agents (the functions the API and the
// command-line tool use), with the API's own field rules (lib/agents/schemas.ts).
import { z } from "zod";
import { agentHandleSchema, agentView, createAgent, listAgents, updateAgent } from "../agents/agents";
import { agentBrandColorSchema, agentDisplayNameSchema, agentLogoUrlSchema } from "../agents/schemas";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";

/** Empty means "none" for the optional fields of the form. */
const blankIsNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v);

const newAgentSchema = z.object({
  handle: agentHandleSchema,
  displayName: z.preprocess(blankIsNull, agentDisplayNameSchema.nullable()),
});

const agentUpdateSchema = z.object({
  displayName: agentDisplayNameSchema,
  logoUrl: z.preprocess(blankIsNull, agentLogoUrlSchema.nullable()),
  brandColor: z.preprocess(blankIsNull, agentBrandColorSchema.nullable()),
  active: z.boolean(),
});

export async function agentsOf(developerId: string) {
  return (await listAgents(developerId)).map(agentView);
}

function refusal(err: z.ZodError): DashboardError {
  const issue = err.issues[0];
  const name = String(issue?.path[0] ?? "");
  const label: Record<string, string> = { handle: "Handle", displayName: "Display name", logoUrl: "Logo URL", brandColor: "Brand colour" };
  return new DashboardError("invalid_input", `${label[name] ?? "A field"}: ${issue?.message ?? "not valid"}.`, name || undefined);
}

export async function createDashboardAgent(input: { actorId: string; developerId: unknown; handle: unknown; displayName: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const parsed = newAgentSchema.safeParse({ handle: input.handle, displayName: input.displayName });
  if (!parsed.success) throw refusal(parsed.error);
  return agentView(await createAgent({ developerId, handle: parsed.data.handle, displayName: parsed.data.displayName ?? undefined }));
}

export async function updateDashboardAgent(input: {
  actorId: string;
  developerId: unknown;
  handle: unknown;
  displayName: unknown;
  logoUrl: unknown;
  brandColor: unknown;
  active: unknown;
}) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const parsed = agentUpdateSchema.safeParse({ displayName: input.displayName, logoUrl: input.logoUrl, brandColor: input.brandColor, active: input.active });
  if (!parsed.success) throw refusal(parsed.error);
  const handle = agentHandleSchema.safeParse(input.handle);
  const agent = handle.success ? await updateAgent({ developerId, handle: handle.data, ...parsed.data, brandColor: parsed.data.brandColor?.toLowerCase() ?? null }) : null;
  if (!agent) throw new DashboardError("not_found");
  return agentView(agent);
}
