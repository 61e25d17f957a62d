// GET /flow/<id>/connect/<app> — from the import screen (or the mailbox page, or a capability's page
// when the provider grants its scope separately) to the app's provider to consent; the provider sends
// the browser back to /connect/callback.
import { ConnectError, startConnection } from "@/lib/connectors/connections";
import { env } from "@/lib/env";
import { connectsApps, flowCookieFrom, openFlowFor } from "@/lib/flow/sessions";

export async function GET(req: Request, { params }: { params: Promise<{ flowId: string; app: string }> }) {
  const { flowId, app } = await params;
  const back = (query = "") => Response.redirect(new URL(`/flow/${flowId}${query}`, env().BASE_URL), 303);
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  if (opened.state !== "open") return back();
  // A partner link's import-only flow brings in assistants only.
  if (!connectsApps(opened.flow)) return back("?connect_error=unknown_app");
  try {
    // A connect link's capability (gmail:send) asks for its scope on its own app too.
    const { url, setCookie } = await startConnection({ app, flowId, userId: opened.flow.userId ?? undefined, capability: opened.flow.connect?.capability ?? undefined });
    return new Response(null, { status: 303, headers: { Location: url.href, "Set-Cookie": setCookie, "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof ConnectError) return back(`?connect_error=${err.reason}`);
    throw err;
  }
}
