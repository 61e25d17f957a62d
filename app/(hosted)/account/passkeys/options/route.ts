// POST /account/passkeys/options — the options (JSON) for making a passkey, for the signed-in person
// (their session cookie): a challenge bound to them, used once, for five minutes. The authenticator's
// answer goes to the add-passkey action.
import { browserRoute } from "@/lib/http/browser-route";
import { sessionUserFromRequest } from "@/lib/person-auth/session";
import { registrationOptions } from "@/lib/passkeys/credentials";
import { PasskeyError } from "@/lib/passkeys/errors";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

export const POST = browserRoute(async function POST(req: Request) {
  const userId = await sessionUserFromRequest(req);
  if (!userId) return json(401, { error: "Sign in first." });
  try {
    return json(200, await registrationOptions(userId));
  } catch (err) {
    if (err instanceof PasskeyError) return json(err.code === "rate_limited" ? 429 : 404, { error: err.message }, { "Retry-After": String(err.retryAfter ?? 60) });
    throw err;
  }
});
