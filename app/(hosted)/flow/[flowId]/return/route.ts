// POST /flow/<id>/return — from the receipt back to the app: the flow ends (for OpenID Connect the
// code is issued now) and the browser goes to the callback. Only a flow on its receipt ends here, which
// the completion's own update checks; anything else goes back to the flow's page.
import { env } from "@/lib/env";
import { flowCookieFrom } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { openFlowFor } from "@/lib/flow/open";
import { returnToApp } from "@/lib/flow/transitions";
import { browserRoute } from "@/lib/http/browser-route";

export const POST = browserRoute(async function POST(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const back = new URL(`/flow/${flowId}`, env().BASE_URL);
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  if (opened.state !== "open" || !opened.flow.userId) return Response.redirect(back, 303);
  try {
    const { redirectTo } = await returnToApp({ flowId, userId: opened.flow.userId });
    return Response.redirect(redirectTo, 303);
  } catch (err) {
    if (err instanceof FlowError) return Response.redirect(back, 303);
    throw err;
  }
});
