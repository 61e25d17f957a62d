// Approved origins in the dashboard: the membership check, then the rule POST /v1/sso/origins and the
// command-line tool use (lib/oidc/clients.ts approveOrigin, lib/developers).
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { listOrigins, removeOrigin } from "../developers/developers";
import { approveOrigin } from "../oidc/clients";

export async function originsOf(developerId: string) {
  return listOrigins(developerId);
}

export async function addDashboardOrigin(input: { actorId: string; developerId: unknown; origin: unknown }): Promise<string> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  if (typeof input.origin !== "string" || input.origin.length > 2_048) throw new DashboardError("invalid_input", undefined, "origin");
  return (await approveOrigin({ developerId, origin: input.origin.trim() })).origin;
}

export async function removeDashboardOrigin(input: { actorId: string; developerId: unknown; origin: unknown }): Promise<void> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  if (typeof input.origin !== "string" || !(await removeOrigin({ developerId, origin: input.origin }))) throw new DashboardError("not_found");
}
