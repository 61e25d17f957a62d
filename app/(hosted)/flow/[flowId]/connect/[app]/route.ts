// GET /flow/<id>/connect/<app> — from the import screen (or the mailbox page, or a capability's page
// when the provider grants its scope separately) to the app's provider to consent; the provider sends
// the browser back to /connect/callback.
import { startConnection } from "@/lib/connectors/connections";
import { AppConnectionError } from "@/lib/connectors/errors";
import { env } from "@/lib/env";
import { flowCookieFrom } from "@/lib/flow/browser";
import { openFlowFor } from "@/lib/flow/open";
import { traitsOf } from "@/lib/flow/sequence";
import { browserRoute } from "@/lib/http/browser-route";

export const GET = browserRoute(async function GET(req: Request, { params }: { params: Promise<{ flowId: string; app: string }> }) {
  const { flowId, app } = await params;
  const back = (query = "") => Response.redirect(new URL(`/flow/${flowId}${query}`, env().BASE_URL), 303);
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  if (opened.state !== "open") return back();
  // A partner link's import-only flow brings in assistants only.
  const traits = traitsOf(opened.flow);
  if (!traits.apps.length) return back("?connect_error=unknown_app");
  try {
    // A connect link's capability (gmail:send) asks for its scope on its own app too.
    const { url, setCookie } = await startConnection({ app, flowId, userId: opened.flow.userId ?? undefined, capability: traits.capability ?? undefined });
    return new Response(null, { status: 303, headers: { Location: url.href, "Set-Cookie": setCookie, "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof AppConnectionError) return back(`?connect_error=${err.reason}`);
    throw err;
  }
});
