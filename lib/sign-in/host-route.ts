// The sign-in host's two addresses, /<agent> and /<agent>/reconnect, answered by one handler.
import { env } from "../env";
import { FlowError, flowRateLimitedPage, flowRedirect } from "../flow/sessions";
import { noticePage } from "../http/html";
import { INTERNAL_MOUNTS, serviceAddressFor } from "../http/hosts";
import { clientIp } from "../http/request";
import { openSignInLink, SignInLinkError } from "./host";

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
