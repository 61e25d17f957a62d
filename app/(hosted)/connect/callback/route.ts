// GET /connect/callback — the provider sends the browser back here after consent: the connection is
// stored and the person returns to their flow.
import { ConnectError, finishConnection } from "@/lib/connectors/connections";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";

export async function GET(req: Request) {
  const url = new URL(req.url);
  const callbackUrl = new URL(`${env().BASE_URL}/connect/callback${url.search}`);
  try {
    const done = await finishConnection(callbackUrl);
    return Response.redirect(new URL(done.flowId ? `/flow/${done.flowId}` : "/", env().BASE_URL), 303);
  } catch (err) {
    if (err instanceof ConnectError && err.flowId) return Response.redirect(new URL(`/flow/${err.flowId}?connect_error=${err.reason}`, env().BASE_URL), 303);
    const reason = err instanceof ConnectError ? err.reason : "failed";
    if (!(err instanceof ConnectError)) logger().error({ err: (err as Error).message }, "connection failed");
    return new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Connection not made · Profile Service</title></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#0f172a"><h1 style="font-size:1.25rem">The app was not connected</h1><p style="color:#334155">${
        err instanceof ConnectError ? err.message : "The provider's answer could not be used. Go back and try again."
      }</p><p style="color:#64748b;font-size:.875rem">Reason: ${reason}</p></body></html>`,
      { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
    );
  }
}
