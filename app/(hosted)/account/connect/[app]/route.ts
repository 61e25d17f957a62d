// GET /account/connect/<app> — from the account page to the app's provider to consent; the provider
// sends the browser back to /connect/callback, which returns to the account page.
import { sessionUserFromRequest } from "@/lib/person-auth/session";
import { startConnection } from "@/lib/connectors/connections";
import { AppConnectionError } from "@/lib/connectors/errors";
import { env } from "@/lib/env";
import { browserRoute } from "@/lib/http/browser-route";

export const GET = browserRoute(async function GET(req: Request, { params }: { params: Promise<{ app: string }> }) {
  const { app } = await params;
  const back = (query = "") => Response.redirect(new URL(`/account${query}`, env().BASE_URL), 303);
  const userId = await sessionUserFromRequest(req);
  if (!userId) return back();
  try {
    const { url, setCookie } = await startConnection({ app, userId });
    return new Response(null, { status: 303, headers: { Location: url.href, "Set-Cookie": setCookie, "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof AppConnectionError) return back(`?connect_error=${err.reason}`);
    throw err;
  }
});
