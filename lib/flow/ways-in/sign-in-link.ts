// The "sign_in_link" way in: an agent's hosted sign-in link, {SIGN_IN_URL}/<agent> and /reconnect
// (lib/sign-in/host.ts checks it), text-back links among them. Its flow returns a sign-in code and the
// state to the link's registered return_to; a text-back link's developer hears of it by the completion
// callback instead (lib/sign-in/completion-callback.ts).
import { isApp, IMPORT_SCREEN_APPS } from "../../catalogue";
import type { Prisma } from "../../platform/db/generated/client";
import { env } from "../../env";
import { noticePage } from "../../http/html";
import { INTERNAL_MOUNTS, serviceAddressFor } from "../../http/hosts";
import { clientIp } from "../../http/request";
import { isMailboxOnly, type RequiredEntry } from "../../required/entries";
import { issueSignInCode } from "../../sign-in/codes";
import { dispatchCompletionCallback, recordCompletionCallback } from "../../sign-in/completion-callback";
import { isRegisteredReturnDestination } from "../../sign-in/destinations";
import { checkSignInLink, SignInLinkError, signInLinkRequest, type SignInLinkRequest } from "../../sign-in/host";
import { oneAppOf } from "../../sign-in/link-connectors";
import { flowRateLimitedPage, flowRedirect } from "../browser";
import { FlowError } from "../errors";
import { importFirstOrder, type OrderInput, type Screen } from "../screens";
import { startFlow } from "../start";
import { profileHome, withParams } from "../urls";
import { PLAIN_TRAITS, type FlowOf, type WayIn } from "./types";

type SignInLinkFlow = FlowOf<"sign_in_link", SignInLinkRequest>;

/** A sign-in link: one app opens on that app's screen; Sheets on the older connect page; otherwise as a sign-in. */
function screens(input: OrderInput, request: SignInLinkRequest): Screen[] {
  const linkApp = oneAppOf(request.connectors);
  // The older connect page: phone, code, then Sheets; required does not apply.
  if (linkApp === "sheets") return ["phone", "code", "app", "receipt"];
  if (!linkApp) return importFirstOrder(input);
  // That app's own screen, marked Required; the mailbox page first only when a mailbox entry is not met
  // by the app itself (connectors ['gmail'] with required ['email'] opens on Gmail).
  const mailboxUnmet = input.required.some((e) => isMailboxOnly(e) && !e.includes(linkApp as RequiredEntry[number]));
  return [...(mailboxUnmet ? (["mailbox"] as Screen[]) : []), "app", "phone", "code", "receipt"];
}

/** The link's return destination while it is still registered (checked again now); null otherwise. */
async function destination(flow: SignInLinkFlow, tx?: Prisma.TransactionClient): Promise<string | null> {
  const back = flow.request.return_to;
  if (!back || !flow.agentId) return null;
  return (await isRegisteredReturnDestination({ agentId: flow.agentId, plane: flow.plane, url: back }, tx)) ? back : null;
}

export const signInLink: WayIn<"sign_in_link", SignInLinkRequest> = {
  name: "sign_in_link",
  request: signInLinkRequest,
  screens,
  traits(request) {
    // A link naming two or more connectors is a sign-in offering them.
    const named = request.connectors.filter(isApp);
    return {
      ...PLAIN_TRAITS,
      displayName: request.display_name,
      app: oneAppOf(request.connectors),
      apps: named.length >= 2 ? named : IMPORT_SCREEN_APPS,
      // A text-back link goes back to the messages, and one without return_to to nowhere the service knows.
      returns: !!request.return_to && !request.message,
      backToMessages: !!request.message,
    };
  },
  async finishing(tx, { flow, userId }) {
    const message = flow.request.message;
    if (!message?.complete_url || !flow.agentId || !flow.developerId) return;
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: flow.agentId }, select: { handle: true } });
    await recordCompletionCallback(tx, {
      flowId: flow.id,
      linkHash: message.link_hash,
      developerId: flow.developerId,
      agentId: flow.agentId,
      agent: agent.handle,
      plane: flow.plane,
      userId,
      url: message.complete_url,
      journey: message.journey,
      messageBody: message.body,
      channel: message.channel,
    });
  },
  async finished(flow) {
    // A text-back link's developer hears of it once the flow is finished (committed by now).
    if (flow.request.message?.complete_url) await dispatchCompletionCallback(flow.id);
  },
  async returnTo(tx, flow, userId) {
    const back = await destination(flow, tx);
    if (!back) return profileHome();
    const { developerId, agentId } = flow;
    if (!developerId || !agentId) throw new Error("a sign-in link's flow has no agent");
    const { code } = await issueSignInCode({ developerId, agentId, plane: flow.plane, userId }, tx);
    return withParams(back, { code, state: flow.request.state });
  },
  async declineTo(flow) {
    const back = await destination(flow);
    return back ? withParams(back, { error: "access_denied", state: flow.request.state }) : profileHome();
  },
};

/** Checks a sign-in link and starts its flow: the flow's id and the browser's cookie value. */
export async function openSignInLink(input: { name: string; reconnect: boolean; params: URLSearchParams; ip: string }) {
  const link = await checkSignInLink(input);
  return startFlow(signInLink, { developerId: link.developerId, agentId: link.agentId, plane: link.plane, request: link.request, required: link.required, ip: input.ip });
}

/** The sign-in host's two addresses, /<agent> and /<agent>/reconnect, answered by one handler. */
export async function answerSignInLink(req: Request, name: string, reconnect: boolean): Promise<Response> {
  const url = new URL(req.url);
  // On a separately hosted SIGN_IN_URL the flow's cookie would belong to the wrong host: the link
  // continues on the service's own address, where the flow is served.
  const host = req.headers.get("host") ?? url.host;
  const path = `${INTERNAL_MOUNTS.signIn}/${encodeURIComponent(name)}${reconnect ? "/reconnect" : ""}${url.search}`;
  const moved = serviceAddressFor(host, path, env());
  if (moved) return new Response(null, { status: 303, headers: { Location: moved, "Cache-Control": "no-store" } });
  try {
    return flowRedirect(await openSignInLink({ name, reconnect, params: url.searchParams, ip: clientIp(req) }));
  } catch (err) {
    if (err instanceof SignInLinkError) return noticePage({ title: err.title, text: err.text, status: err.status });
    if (err instanceof FlowError && err.reason === "rate_limited") return flowRateLimitedPage(err);
    throw err;
  }
}
