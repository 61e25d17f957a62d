// GET {SIGN_IN_URL}/<agent> — an agent's hosted sign-in link: opens the hosted flow for that agent
// (lib/sign-in/host.ts); finishing returns a sign-in code and the state to the registered return_to.
import { answerSignInLink } from "@/lib/flow/ways-in/sign-in-link";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";

export const GET = browserRoute(async function GET(req: Request, { params }: { params: Promise<{ agent: string }> }) {
  return answerSignInLink(req, (await params).agent, false);
});
