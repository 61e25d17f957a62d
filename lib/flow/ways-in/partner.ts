// The "partner" way in: a partner flow session's link ({BASE_URL}/partner/pfs_…, lib/partner-sessions).
// Its import screen offers the session's sources; the import-only flow asks for no number and saves to
// the account partner_ref names. Finishing completes the session for the partner to read; there is
// no way back: the person returns to the partner's app themselves.
import { ASSISTANTS, IMPORT_SCREEN_APPS } from "../../catalogue";
import { partnerLinkRequest, type PartnerLinkRequest } from "../../partner-sessions/flow-request";
import { completePartnerSession, PARTNER_REF_TAKEN, partnerImportUser, partnerLinkToOpen } from "../../partner-sessions/sessions";
import { importFirstOrder, type OrderInput, type Screen } from "../screens";
import { startFlow } from "../start";
import { profileHome } from "../urls";
import { PLAIN_TRAITS, type WayIn } from "./types";

/**
 * The import-only flow is the import screen and the receipt; connect and linked_account are a
 * sign-in's import, phone, code (linked_account with phone-first: phone, code, then the import screen
 * signed in, as after "Sign in").
 */
function screens(input: OrderInput, request: PartnerLinkRequest): Screen[] {
  if (request.flow === "import") return ["import", "receipt"];
  const phoneFirst = request.flow === "linked_account" && request.phone_first;
  return importFirstOrder({ ...input, signInFirst: input.signInFirst || phoneFirst });
}

export const partner: WayIn<"partner", PartnerLinkRequest> = {
  name: "partner",
  request: partnerLinkRequest,
  screens,
  traits(request) {
    // The import-only flow brings in assistants only: no number, no apps.
    const importOnly = request.flow === "import";
    return {
      ...PLAIN_TRAITS,
      assistants: ASSISTANTS.filter((a) => request.sources.includes(a)),
      apps: importOnly ? [] : IMPORT_SCREEN_APPS,
      signsIn: !importOnly,
      bindsExternalId: request.binds_external_id,
      returns: false,
    };
  },
  async accountWithoutNumber(flow) {
    const userId = await partnerImportUser(flow.request.partner_session_id);
    return userId ? { userId } : { refused: PARTNER_REF_TAKEN };
  },
  async finishing(tx, { flow, userId, importIds, connected }) {
    await completePartnerSession(tx, {
      sessionId: flow.request.partner_session_id,
      userId,
      importIds,
      connected,
      bindsExternalId: flow.request.binds_external_id,
      phoneHash: flow.phoneHash,
    });
  },
  returnTo: async () => profileHome(),
  declineTo: async () => profileHome(),
};

/** A person opens a partner session's link: its flow starts, or why not. */
export async function openPartnerSession({ sessionId, ip }: { sessionId: string; ip: string }) {
  const opened = await partnerLinkToOpen(sessionId);
  if ("refused" in opened) return opened;
  const flow = await startFlow(partner, { developerId: opened.developerId, agentId: opened.agentId, plane: opened.plane, request: opened.request, required: opened.required, ip });
  return { flow };
}
