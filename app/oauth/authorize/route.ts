// GET /oauth/authorize — start an OpenID Connect sign-in: a valid request opens the hosted flow;
// any error is shown in the browser (JSON for non-browser callers) and never sent to the callback.
import { defineRoute } from "@/lib/api-edge/define-route";
import { oauthErrorPage, unavailablePage } from "@/lib/http/html";
import { databaseUnavailable } from "@/lib/platform/db/unavailable";
import { flowRedirect } from "@/lib/flow/browser";
import { openAuthorizeFlow } from "@/lib/flow/ways-in/oidc";
import { invalidRequest, OAuthError, oauthErrorAnswer, unsafeParameter } from "@/lib/oidc/errors";
import { unsafeTextField } from "@/lib/http/text-input";
import { oauthLimiter } from "@/lib/oidc/limits";

export const GET = defineRoute({
  method: "GET",
  path: "/oauth/authorize",
  summary: "Start an OpenID Connect sign-in: a valid request opens the hosted flow.",
  // A redirect to the hosted flow; errors are shown in the browser (an HTML page) or as JSON.
  responses: { 303: null },
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  errorShape: oauthErrorAnswer,
  handler: async ({ req, ip }) => {
    const url = new URL(req.url);
    try {
      const unsafe = unsafeTextField(url.searchParams);
      if (unsafe !== null) throw invalidRequest(unsafeParameter(unsafe));
      return flowRedirect(await openAuthorizeFlow(url.searchParams, ip));
    } catch (err) {
      const wantsHtml = (req.headers.get("accept") ?? "").includes("text/html");
      // A person's browser gets the "we'll be right back" page while the database is away; other callers the OAuth 503.
      if (wantsHtml && databaseUnavailable(err)) return unavailablePage();
      if (!(err instanceof OAuthError)) throw err;
      if (wantsHtml) return oauthErrorPage({ error: err.error, description: err.description, status: err.status });
      throw err;
    }
  },
});
