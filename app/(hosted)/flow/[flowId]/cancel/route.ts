// POST /flow/<id>/cancel — the person declines: the app's callback gets error=access_denied.
import { flowCookieFrom } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { openFlowFor } from "@/lib/flow/open";
import { declineFlow } from "@/lib/flow/transitions";
import { env } from "@/lib/env";
import { browserRoute } from "@/lib/http/browser-route";

export const POST = browserRoute(async function POST(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const back = new URL(`/flow/${flowId}`, env().BASE_URL);
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  // An expired flow can still be declined: the app hears access_denied rather than nothing.
  if (opened.state !== "open" && opened.state !== "expired") return Response.redirect(back, 303);
  try {
    const { redirectTo } = await declineFlow({ flowId });
    return Response.redirect(redirectTo, 303);
  } catch (err) {
    if (err instanceof FlowError) return Response.redirect(back, 303);
    throw err;
  }
});
