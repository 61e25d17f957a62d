// The completion-callback secrets on the dashboard: each plane's current secret (members read it, as
// the account's secret keys do over the API) and its rotation, through lib/sign-in/callback-secrets.ts.
import { z } from "zod";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { CALLBACK_SECRET_OVERLAP_HOURS, callbackSecretOf, rotateCallbackSecret, type CallbackSecretView } from "../sign-in/callback-secrets";

export { CALLBACK_SECRET_OVERLAP_HOURS };

export type CallbackSecretsView = Record<"live" | "test", CallbackSecretView>;

/** Both planes' secrets of the account. */
export async function callbackSecretsOf(developerId: string): Promise<CallbackSecretsView> {
  const [live, test] = await Promise.all([callbackSecretOf({ developerId, plane: "live" }), callbackSecretOf({ developerId, plane: "test" })]);
  return { live, test };
}

const rotation = z.object({
  plane: z.enum(["live", "test"]),
  // The form offers the default overlap or none (a secret that leaked).
  overlap: z.enum(["keep", "end"]),
});

/** Rotates one plane's secret for a member: the replaced one signs on for the overlap, or stops now. */
export async function rotateDashboardCallbackSecret(input: { actorId: string; developerId: unknown; plane: unknown; overlap: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const parsed = rotation.safeParse({ plane: input.plane, overlap: input.overlap });
  if (!parsed.success) throw new DashboardError("invalid_input");
  const view = await rotateCallbackSecret({ developerId, plane: parsed.data.plane, overlapHours: parsed.data.overlap === "keep" ? CALLBACK_SECRET_OVERLAP_HOURS : 0 });
  return { plane: parsed.data.plane, ...view };
}
