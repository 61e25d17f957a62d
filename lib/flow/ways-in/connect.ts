// The "connect" way in: a connect link ({MCP_URL}/connect/mcc_…, lib/connect-links) an agent showed
// the person, for an app, a capability, or their profile. Finishing its flow approves the link (and
// grants the capability allowed, and binds the developer's id for the person where the link says so);
// the browser goes back to the link's return_url while the developer still has it registered.
import { approveConnectLink, connectLinkToOpen } from "../../connect-links/links";
import { connectLinkRequest, type ConnectLinkRequest } from "../../connect-links/flow-request";
import type { Prisma } from "../../platform/db/generated/client";
import { isRegisteredDestination } from "../../developers/destinations";
import type { Screen } from "../screens";
import { startFlow } from "../start";
import { profileHome, withParams } from "../urls";
import { PLAIN_TRAITS, type FlowOf, type WayIn } from "./types";

type ConnectFlow = FlowOf<"connect", ConnectLinkRequest>;

/**
 * A capability keeps its own page (phone and code first for a person not signed in); one app opens on
 * that app (phone and code after it); no app opens on the import screen, or on the list of apps for a
 * signed-in person.
 */
function screens(request: ConnectLinkRequest): Screen[] {
  const signIn: Screen[] = request.signed_in ? [] : ["phone", "code"];
  if (request.capability) return [...signIn, "capability", "receipt"];
  if (request.app) return ["app", ...signIn, "receipt"];
  return request.signed_in ? ["apps", "receipt"] : ["import", "phone", "code", "receipt"];
}

/**
 * The link's return_url while it is still a destination the developer registered (checked again now:
 * an origin removed since stops receiving people); null otherwise.
 */
async function returnUrl(flow: ConnectFlow, tx?: Prisma.TransactionClient): Promise<string | null> {
  const back = flow.request.return_url;
  if (!back || !flow.developerId) return null;
  return (await isRegisteredDestination({ developerId: flow.developerId, url: back }, tx)) ? back : null;
}

export const connect: WayIn<"connect", ConnectLinkRequest> = {
  name: "connect",
  request: connectLinkRequest,
  screens: (_input, request) => screens(request),
  traits: (request) => ({
    ...PLAIN_TRAITS,
    app: request.app,
    capability: request.capability,
    clientName: request.client_name,
    purpose: request.purpose,
    onlyAccount: request.for_user_id ?? null,
    bindsExternalId: !!request.binds_external_id,
  }),
  async finishing(tx, { flow, userId }) {
    await approveConnectLink(tx, {
      linkId: flow.request.connect_link_id,
      userId,
      capabilityAllowed: !!flow.request.capability_allowed,
      bindsExternalId: !!flow.request.binds_external_id,
      phoneHash: flow.phoneHash,
    });
  },
  returnTo: async (tx, flow) => (await returnUrl(flow, tx)) ?? profileHome(),
  async declineTo(flow) {
    const back = await returnUrl(flow);
    return back ? withParams(back, { error: "access_denied" }) : profileHome();
  },
};

/** A person opens a connect link: its flow starts (signed in already when their session counts here), or why not. */
export async function openConnectLink(input: { linkId: string; sessionUserId: string | null; ip: string }) {
  const opened = await connectLinkToOpen(input);
  if ("refused" in opened) return opened;
  const flow = await startFlow(connect, {
    developerId: opened.developerId,
    agentId: opened.agentId,
    plane: opened.plane,
    userId: opened.userId ?? undefined,
    request: opened.request,
    required: opened.required,
    ip: input.ip,
  });
  return { flow };
}
