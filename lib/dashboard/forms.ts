// The agent forms' fields, read into the dashboard's agent operations (lib/dashboard/agents.ts).
import { createDashboardAgent, updateDashboardAgent } from "./agents";
import { field } from "./form";

export function createAgentFromForm(actorId: string, form: FormData) {
  return createDashboardAgent({ actorId, developerId: field(form, "developer"), handle: field(form, "handle").trim(), displayName: field(form, "display_name") });
}

export function updateAgentFromForm(actorId: string, form: FormData) {
  return updateDashboardAgent({
    actorId,
    developerId: field(form, "developer"),
    handle: field(form, "handle"),
    displayName: field(form, "display_name"),
    logoUrl: field(form, "logo_url"),
    brandColor: field(form, "brand_color"),
    active: form.get("active") === "on",
  });
}
