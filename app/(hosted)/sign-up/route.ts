// GET /sign-up — the service's own profile sign-up: starts a hosted flow that is for no app and
// ends on the service's home page.
import { flowRateLimitedPage, flowRedirect } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { openProfileSignup } from "@/lib/flow/ways-in/profile-signup";
import { clientIp } from "@/lib/http/request";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";

export const GET = browserRoute(async function GET(req: Request) {
  try {
    return flowRedirect(await openProfileSignup(clientIp(req)));
  } catch (err) {
    if (err instanceof FlowError && err.reason === "rate_limited") return flowRateLimitedPage(err);
    throw err;
  }
});
