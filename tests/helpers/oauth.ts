// OpenID Connect test steps through the real handlers: register a client, authorize, finish the
// flow as a person would (the flow's completion function), and call the token endpoint.
import { createHash, randomBytes } from "node:crypto";
import { GET as authorizeRoute } from "@/app/oauth/authorize/route";
import { POST as revokeRoute } from "@/app/oauth/revoke/route";
import { POST as tokenRoute } from "@/app/oauth/token/route";
import { POST as clientRoute } from "@/app/v1/sso/client/route";
import { returnFromReceipt } from "./receipt";
import type { Tenant } from "./fixtures";
import { call, type CallResult } from "./http";

export const CALLBACK = "http://localhost:4000/callback";

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function registerClient(t: Tenant, opts: { method?: string; redirectUri?: string; pk?: string } = {}) {
  const res = await call(clientRoute, {
    body: { publishable_key: opts.pk ?? t.keys.pk, redirect_uri: opts.redirectUri ?? CALLBACK, ...(opts.method ? { token_endpoint_auth_method: opts.method } : {}) },
  });
  if (res.status >= 300) throw new Error(`client registration failed: ${JSON.stringify(res.body)}`);
  return res.body as { client_id: string; client_secret?: string };
}

/** Calls GET /oauth/authorize with the given parameters (undefined drops one). */
export function authorizeCall(params: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query[k] = v;
  return call(authorizeRoute, { query, headers });
}

export function authorizeParams(clientId: string, challenge: string, extra: Record<string, string | undefined> = {}) {
  return {
    response_type: "code",
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "openid email profile",
    state: "st-123",
    nonce: "n-456",
    ...extra,
  };
}

/** The flow id from an authorize answer's Location. */
export function flowIdFrom(res: CallResult): string {
  const location = res.headers.get("location");
  if (res.status !== 303 || !location) throw new Error(`authorize did not start a flow: ${res.status} ${JSON.stringify(res.body)}`);
  return new URL(location).pathname.split("/").pop()!;
}

/** authorize → flow → completion for the user: the code and the callback URL. */
export async function signIn(clientId: string, userId: string, extra: Record<string, string | undefined> = {}) {
  const { verifier, challenge } = pkce();
  const flowId = flowIdFrom(await authorizeCall(authorizeParams(clientId, challenge, extra)));
  const { redirectTo } = await returnFromReceipt({ flowId, userId });
  const url = new URL(redirectTo);
  return { code: url.searchParams.get("code")!, state: url.searchParams.get("state"), verifier, redirectTo: url, flowId };
}

export function tokenCall(params: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  return call(tokenRoute, { rawBody: body.toString(), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
}

export function revokeCall(token: string) {
  return call(revokeRoute, { rawBody: new URLSearchParams({ token }).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
}

export function basic(id: string, secret: string) {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}` };
}

/** A full code exchange for a public client: the token response. */
export async function exchange(clientId: string, userId: string, extra: Record<string, string | undefined> = {}) {
  const s = await signIn(clientId, userId, extra);
  const res = await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: s.verifier });
  if (res.status !== 200) throw new Error(`exchange failed: ${JSON.stringify(res.body)}`);
  return res.body as { access_token: string; refresh_token: string; id_token?: string; scope: string; expires_in: number; resource: string; token_type: string };
}
