// GET {MCP_URL}/connect/<id> — a person opens a connect link: a hosted flow starts for what the link
// asks (an app, a capability, or their profile), signed in already when their session is here.
import { sessionUserFromRequest } from "@/lib/auth/session";
import { openConnectLink } from "@/lib/connect/links";
import { flowRedirect } from "@/lib/flow/sessions";
import { noticePage } from "@/lib/http/html";

export const dynamic = "force-dynamic";

const REFUSED = {
  unknown: { title: "This link is not valid", text: "Ask the app for a new one.", status: 404 },
  used: { title: "This link has been used", text: "What it asked for is done. You can close this page.", status: 410 },
  expired: { title: "This link has expired", text: "Ask the app for a new one.", status: 410 },
} as const;

export async function GET(req: Request, { params }: { params: Promise<{ linkId: string }> }) {
  const { linkId } = await params;
  const opened = await openConnectLink(linkId, await sessionUserFromRequest(req));
  return "flow" in opened ? flowRedirect(opened.flow) : noticePage(REFUSED[opened.refused]);
}
