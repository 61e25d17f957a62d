// POST /dev/connect/decide — the development consent page's answer: back to the service's connect
// callback with a code (allowed, for the address given) or error=access_denied, as a provider would.
import { z } from "zod";
import { devConsentRequest } from "@/lib/connectors/dev-consent";
import { devAuthorizationCode } from "@/lib/connectors/development";
import { developmentMode, env } from "@/lib/env";

const decision = devConsentRequest.extend({
  decision: z.enum(["allow", "deny"]),
  email: z.string().trim().toLowerCase().max(320).pipe(z.email()).optional().or(z.literal("")),
});

export async function POST(req: Request) {
  if (!developmentMode() || env().CONNECT_DRIVER !== "development") return new Response("Not found", { status: 404 });
  const form = Object.fromEntries((await req.formData()).entries());
  const parsed = decision.safeParse(form);
  if (!parsed.success) return new Response(`Bad request: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`, { status: 400 });
  const d = parsed.data;
  const back = new URL(d.redirect_uri);
  back.searchParams.set("state", d.state);
  if (d.decision === "deny") back.searchParams.set("error", "access_denied");
  else if (!d.email)
    return Response.redirect(
      new URL(
        `/dev/connect?${new URLSearchParams({ app: d.app, state: d.state, code_challenge: d.code_challenge, redirect_uri: d.redirect_uri, missing: "email" })}`,
        env().BASE_URL,
      ),
      303,
    );
  else back.searchParams.set("code", devAuthorizationCode({ app: d.app, email: d.email, state: d.state, challenge: d.code_challenge, redirectUri: d.redirect_uri }));
  return Response.redirect(back, 303);
}
