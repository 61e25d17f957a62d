// GET /connect/callback — the provider sends the browser back here after consent: the connection is
// stored and the person returns to their flow, or to their account page when they connected from it.
import { ConnectError, finishConnection } from "@/lib/connectors/connections";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";

export async function GET(req: Request) {
  const url = new URL(req.url);
  const callbackUrl = new URL(`${env().BASE_URL}/connect/callback${url.search}`);
  try {
    const done = await finishConnection(callbackUrl);
    const to = done.flowId ? `/flow/${done.flowId}` : done.userId ? `/account?connected=${done.app}` : "/";
    return Response.redirect(new URL(to, env().BASE_URL), 303);
  } catch (err) {
    if (err instanceof ConnectError) {
      const to = err.flowId ? `/flow/${err.flowId}` : "/account";
      return Response.redirect(new URL(`${to}?connect_error=${err.reason}`, env().BASE_URL), 303);
    }
    logger().error({ err: (err as Error).message }, "connection failed");
    return new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Connection not made · Profile Service</title></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#0f172a"><h1 style="font-size:1.25rem">The app was not connected</h1><p style="color:#334155">The provider's answer could not be used. Go back and try again.</p></body></html>`,
      { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
    );
  }
}
