// GET {SIGN_IN_URL}/<agent>/reconnect — the reconnect form of a sign-in link: the connectors it names
// need connecting again (a text-back link's reconnect journey).
import { answerSignInLink } from "@/lib/flow/ways-in/sign-in-link";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";

export const GET = browserRoute(async function GET(req: Request, { params }: { params: Promise<{ agent: string }> }) {
  return answerSignInLink(req, (await params).agent, true);
});
