// GET {BASE_URL}/partner/<id> — a person opens a partner flow session's link: a hosted flow starts
// for it (import, phone and code; or the import-only flow), until the session expires or is used.
import { flowRateLimitedPage, flowRedirect } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { openPartnerSession } from "@/lib/flow/ways-in/partner";
import { noticePage } from "@/lib/http/html";
import { clientIp } from "@/lib/http/request";
import { PARTNER_LINK_REFUSED } from "@/lib/partner-sessions/sessions";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";

export const GET = browserRoute(async function GET(req: Request, { params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  try {
    const opened = await openPartnerSession({ sessionId, ip: clientIp(req) });
    return "flow" in opened ? flowRedirect(opened.flow) : noticePage(PARTNER_LINK_REFUSED[opened.refused]);
  } catch (err) {
    if (err instanceof FlowError && err.reason === "rate_limited") return flowRateLimitedPage(err);
    throw err;
  }
});
