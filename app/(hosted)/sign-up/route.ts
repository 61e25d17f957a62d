// GET /sign-up — the service's own profile sign-up: starts a hosted flow that is for no app and
// ends on the service's home page.
import { createFlow, flowRedirect } from "@/lib/flow/sessions";

export const dynamic = "force-dynamic";

export async function GET() {
  const flow = await createFlow({ wayIn: "profile_signup", plane: "live", required: [] });
  return flowRedirect(flow);
}
