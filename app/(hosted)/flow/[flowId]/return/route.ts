// POST /flow/<id>/return — from the receipt back to the app: the flow ends (for OpenID Connect the
// code is issued now) and the browser goes to the callback.
import { env } from "@/lib/env";
import { completeFlow, FlowError, findFlow, flowCookieFrom, isFlowBrowser } from "@/lib/flow/sessions";

export async function POST(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const back = new URL(`/flow/${flowId}`, env().BASE_URL);
  const flow = await findFlow(flowId);
  if (!flow || flow.screen !== "receipt" || !flow.userId || !(await isFlowBrowser(flow, flowCookieFrom(req, flowId)))) {
    return Response.redirect(back, 303);
  }
  try {
    const { redirectTo } = await completeFlow({ flowId, userId: flow.userId });
    return Response.redirect(redirectTo, 303);
  } catch (err) {
    if (err instanceof FlowError) return Response.redirect(back, 303);
    throw err;
  }
}
