// GET {MCP_URL}/connect/<id> — a person opens a connect link: a hosted flow starts for what the link
// asks (an app, a capability, or their profile), signed in already when their session is here.
import { sessionUserFromRequest } from "@/lib/person-auth/session";
import { flowRateLimitedPage, flowRedirect } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { openConnectLink } from "@/lib/flow/ways-in/connect";
import { clientIp } from "@/lib/http/request";
import { noticePage } from "@/lib/http/html";
import { INTERNAL_MOUNTS, serviceAddressFor } from "@/lib/http/hosts";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

const REFUSED = {
  unknown: { title: "This link is not valid", text: "Ask the app for a new one.", status: 404 },
  expired: { title: "This link has expired", text: "Ask the app for a new one.", status: 410 },
} as const;

export async function GET(req: Request, { params }: { params: Promise<{ linkId: string }> }) {
  const { linkId } = await params;
  // On a separately hosted MCP_URL the flow's cookie and the person's session would belong to the
  // wrong host: the link continues on the service's own address, where the flow is served.
  const host = req.headers.get("host") ?? new URL(req.url).host;
  const moved = serviceAddressFor(host, `${INTERNAL_MOUNTS.mcp}/connect/${encodeURIComponent(linkId)}`, env());
  if (moved) return new Response(null, { status: 303, headers: { Location: moved, "Cache-Control": "no-store" } });
  try {
    const opened = await openConnectLink({ linkId, sessionUserId: await sessionUserFromRequest(req), ip: clientIp(req) });
    return "flow" in opened ? flowRedirect(opened.flow) : noticePage(REFUSED[opened.refused]);
  } catch (err) {
    if (err instanceof FlowError && err.reason === "rate_limited") return flowRateLimitedPage(err);
    throw err;
  }
}
