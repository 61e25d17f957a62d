// GET /connect/callback — the provider sends the browser back here after consent: in the browser
// that started the attempt (its cookie), the connection is stored and the person returns to their
// flow (a capability waiting on this consent is granted), or to their account page when they
// connected from it.
import { sessionUserFromRequest } from "@/lib/person-auth/session";
import { attemptCookie, finishConnection } from "@/lib/connectors/connections";
import { AppConnectionError } from "@/lib/connectors/errors";
import { env } from "@/lib/env";
import { finishCapabilityConsent } from "@/lib/flow/steps";
import { clearCookieHeader } from "@/lib/http/cookies";
import { noticePage } from "@/lib/http/html";
import { logger } from "@/lib/platform/log";
import { browserRoute } from "@/lib/http/browser-route";

export const GET = browserRoute(async function GET(req: Request) {
  const url = new URL(req.url);
  const callbackUrl = new URL(`${env().BASE_URL}/connect/callback${url.search}`);
  // The attempt's cookie has done its work, whatever the outcome.
  const clear = clearCookieHeader(attemptCookie(url.searchParams.get("state") ?? ""));
  const go = (to: string) => new Response(null, { status: 303, headers: { Location: new URL(to, env().BASE_URL).href, "Set-Cookie": clear, "Cache-Control": "no-store" } });
  try {
    const done = await finishConnection(callbackUrl, req.headers.get("cookie"));
    if (done.flowId) {
      // Back from the consent a capability's scope needed: the capability is granted now, unless the scope was left out.
      const capability = await finishCapabilityConsent(done.flowId);
      return go(`/flow/${done.flowId}${capability === "missing" ? "?connect_error=scope_not_granted" : ""}`);
    }
    return go(done.userId ? `/account?connected=${done.app}` : "/");
  } catch (err) {
    if (err instanceof AppConnectionError && err.flowId) return go(`/flow/${err.flowId}?connect_error=${err.reason}`);
    if (err instanceof AppConnectionError && (await sessionUserFromRequest(req))) return go(`/account?connect_error=${err.reason}`);
    if (!(err instanceof AppConnectionError)) logger().error({ err: (err as Error).message }, "connection failed");
    const res = noticePage({
      title: "The app was not connected",
      text: err instanceof AppConnectionError ? err.message : "The provider's answer could not be used. Go back and try again.",
      status: 400,
    });
    res.headers.append("Set-Cookie", clear);
    return res;
  }
});
