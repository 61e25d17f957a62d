// POST /flow/<id>/return — from the receipt back to the app: the flow ends (for OpenID Connect the
// code is issued now) and the browser goes to the callback.
import { env } from "@/lib/env";
import { completeFlow, FlowError, flowCookieFrom, openFlowFor } from "@/lib/flow/sessions";

export async function POST(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const back = new URL(`/flow/${flowId}`, env().BASE_URL);
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  if (opened.state !== "open" || opened.flow.screen !== "receipt" || !opened.flow.userId) return Response.redirect(back, 303);
  try {
    const { redirectTo } = await completeFlow({ flowId, userId: opened.flow.userId });
    return Response.redirect(redirectTo, 303);
  } catch (err) {
    if (err instanceof FlowError) return Response.redirect(back, 303);
    throw err;
  }
}
