// GET /flow/<id>/verified — back from a Google or GitHub sign-in started on the mailbox page. When it
// proved an address for the flow's account, the flow ends (receipt); otherwise the mailbox page shows
// again. Either way the browser lands on the flow.
import { sessionUserFromRequest } from "@/lib/person-auth/session";
import { verifyFlowCookie } from "@/lib/person-auth/third-party";
import { env } from "@/lib/env";
import { clearCookieHeader } from "@/lib/http/cookies";
import { flowCookieFrom } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { openFlowFor } from "@/lib/flow/open";
import { finishThirdPartyProof, StepError } from "@/lib/flow/steps";
import { browserRoute } from "@/lib/http/browser-route";

export const GET = browserRoute(async function GET(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  if (opened.state === "open") {
    try {
      await finishThirdPartyProof(opened.flow, await sessionUserFromRequest(req));
    } catch (err) {
      if (!(err instanceof FlowError || err instanceof StepError)) throw err;
    }
  }
  // The sign-in's hand-back cookie has done its job (set on path / by the mailbox step).
  return new Response(null, {
    status: 303,
    headers: { Location: new URL(`/flow/${encodeURIComponent(flowId)}`, env().BASE_URL).href, "Set-Cookie": clearCookieHeader(verifyFlowCookie), "Cache-Control": "no-store" },
  });
});
