// POST /flow/<id>/cancel — the person declines: the app's callback gets error=access_denied.
import { cookies } from "next/headers";
import { declineFlow, FlowError, flowCookieName, isFlowBrowser } from "@/lib/flow/sessions";
import { env } from "@/lib/env";

export async function POST(_req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const back = new URL(`/flow/${flowId}`, env().BASE_URL);
  const jar = await cookies();
  if (!(await isFlowBrowser(flowId, jar.get(flowCookieName(flowId))?.value))) return Response.redirect(back, 303);
  try {
    const { redirectTo } = await declineFlow({ flowId });
    return Response.redirect(redirectTo, 303);
  } catch (err) {
    if (err instanceof FlowError) return Response.redirect(back, 303);
    throw err;
  }
}
