// GET {MCP_URL}/connect/<id> — a person opens a connect link: a hosted flow starts for what the link
// asks (an app, a capability, or their profile), signed in already when their session is here.
import { sessionUserFromRequest } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { noticePage } from "@/lib/http/html";
import { now as clockNow } from "@/lib/clock";
import { createFlow, flowRedirect } from "@/lib/flow/sessions";
import type { RequiredName } from "@/lib/oidc/required";

export const dynamic = "force-dynamic";

function page(title: string, text: string, status: number): Response {
  return noticePage({ title, text, status });
}

export async function GET(req: Request, { params }: { params: Promise<{ linkId: string }> }) {
  const { linkId } = await params;
  const prisma = await db();
  const link = linkId.startsWith("mcc_") ? await prisma.connectLink.findUnique({ where: { id: linkId } }) : null;
  if (!link) return page("This link is not valid", "Ask the app for a new one.", 404);
  if (link.status === "approved") return page("This link has been used", "What it asked for is done. You can close this page.", 410);
  if (link.expiresAt <= clockNow()) return page("This link has expired", "Ask the app for a new one.", 410);

  // A person already signed in (in this plane, and the one the link names, if it names one) skips phone and code.
  const sessionUser = await sessionUserFromRequest(req);
  const signedIn =
    sessionUser && (!link.userId || link.userId === sessionUser)
      ? await prisma.user.findFirst({ where: { id: sessionUser, plane: link.plane }, select: { id: true } })
      : null;
  const flow = await createFlow({
    wayIn: "connect",
    developerId: link.developerId,
    agentId: link.agentId,
    plane: link.plane,
    connectLinkId: link.id,
    userId: signedIn?.id,
    connect: {
      app: link.app,
      capability: link.capability,
      purpose: link.purpose,
      client_name: link.clientName,
      return_url: link.returnUrl,
      signed_in: !!signedIn,
    },
    // A one-app link's app is marked Required on its screen.
    required: link.app ? [[link.app as RequiredName]] : [],
  });
  return flowRedirect(flow);
}
