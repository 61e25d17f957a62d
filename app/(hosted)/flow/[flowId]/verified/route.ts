// GET /flow/<id>/verified — back from a Google or GitHub sign-in started on the mailbox page. When it
// proved an address for the flow's account, the flow ends (receipt); otherwise the mailbox page shows
// again. Either way the browser lands on the flow.
import { cookies } from "next/headers";
import { sessionUserFromRequest } from "@/lib/auth/session";
import { VERIFY_FLOW_COOKIE } from "@/lib/auth/third-party";
import { env } from "@/lib/env";
import { FlowError, findFlow, flowCookieName, isFlowBrowser } from "@/lib/flow/sessions";
import { finishThirdPartyProof, StepError } from "@/lib/flow/steps";

export async function GET(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const jar = await cookies();
  jar.delete(VERIFY_FLOW_COOKIE);
  const flow = await findFlow(flowId);
  if (flow && (await isFlowBrowser(flow, jar.get(flowCookieName(flowId))?.value))) {
    try {
      await finishThirdPartyProof(flow, await sessionUserFromRequest(req));
    } catch (err) {
      if (!(err instanceof FlowError || err instanceof StepError)) throw err;
    }
  }
  return Response.redirect(new URL(`/flow/${flowId}`, env().BASE_URL), 303);
}
