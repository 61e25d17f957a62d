// POST /flow/<id>/passkey/options — the phone screen's passkey sign-in options (JSON), for the browser
// that started the flow (its flow cookie) while the flow is on the phone screen: a challenge bound to
// the flow, used once, expiring with it. The assertion goes to the flow's passkey action.
import { flowCookieFrom } from "@/lib/flow/browser";
import { openFlowFor } from "@/lib/flow/open";
import { StepAlreadyDone } from "@/lib/flow/errors";
import { browserRoute } from "@/lib/http/browser-route";
import { clientIp } from "@/lib/http/request";
import { PasskeyError } from "@/lib/passkeys/errors";
import { signInOptions } from "@/lib/passkeys/sign-in";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

export const POST = browserRoute(async function POST(req: Request, { params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const opened = await openFlowFor(flowId, flowCookieFrom(req, flowId));
  if (opened.state !== "open") return json(404, { error: "This sign-in is not open in this browser." });
  try {
    return json(200, await signInOptions(opened.flow, { ip: clientIp(req) }));
  } catch (err) {
    if (err instanceof PasskeyError) return json(429, { error: err.message }, { "Retry-After": String(err.retryAfter ?? 60) });
    if (err instanceof StepAlreadyDone) return json(409, { error: err.message });
    throw err;
  }
});
