// Notion as a connection provider: Notion's OAuth (authorization code; the token endpoint takes JSON
// with HTTP Basic client authentication), the workspace owner's id and address from the token
// answer, refresh when Notion issued a refresh token, and revocation at /v1/oauth/revoke.
import { env } from "../env";
import type { TokenEndpointResponse } from "openid-client";
import { tokenSet } from "./oauth-client";
import { ProviderGrantError, type ConnectorProvider, type ProviderTokens } from "./types";

interface NotionTokenAnswer {
  access_token: string;
  refresh_token?: string | null;
  expires_in?: number;
  bot_id?: string;
  owner?: { type?: string; user?: { id?: string; person?: { email?: string } } };
  error?: string;
  error_description?: string;
}

function credentials(): string {
  const e = env();
  if (!e.NOTION_CLIENT_ID || !e.NOTION_CLIENT_SECRET) throw new Error("Notion is not configured (NOTION_CLIENT_ID, NOTION_CLIENT_SECRET).");
  return `Basic ${Buffer.from(`${e.NOTION_CLIENT_ID}:${e.NOTION_CLIENT_SECRET}`).toString("base64")}`;
}

async function post(url: string, body: Record<string, string>): Promise<{ status: number; json: NotionTokenAnswer }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { Authorization: credentials(), "Content-Type": "application/json", Accept: "application/json", "Notion-Version": "2022-06-28" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as NotionTokenAnswer };
}

/** Notion's token answer carries the standard fields (no scope). */
const tokens = (answer: NotionTokenAnswer, previousRefresh?: string): ProviderTokens => tokenSet(answer as unknown as TokenEndpointResponse, previousRefresh);

export const notion: ConnectorProvider = {
  id: "notion",
  configured: () => !!env().NOTION_CLIENT_ID && !!env().NOTION_CLIENT_SECRET,

  authorizationUrl({ state, codeChallenge, redirectUri }) {
    const url = new URL(env().NOTION_AUTHORIZATION_URL);
    url.search = new URLSearchParams({
      client_id: env().NOTION_CLIENT_ID!,
      response_type: "code",
      owner: "user",
      redirect_uri: redirectUri,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: "S256",
    }).toString();
    return url;
  },

  async exchange({ callbackUrl, state, verifier }) {
    if (callbackUrl.searchParams.get("state") !== state) throw new Error("state mismatch");
    const code = callbackUrl.searchParams.get("code");
    if (!code) throw new Error("Notion sent no code.");
    const { status, json } = await post(env().NOTION_TOKEN_URL, {
      grant_type: "authorization_code",
      code,
      redirect_uri: `${callbackUrl.origin}${callbackUrl.pathname}`,
      code_verifier: verifier,
    });
    if (status !== 200 || !json.access_token) throw new Error(`Notion refused the code (HTTP ${status}): ${json.error ?? "no detail"}`);
    const id = json.owner?.user?.id ?? json.bot_id;
    if (!id) throw new Error("Notion gave no account id.");
    return { ...tokens(json), account: { id, email: json.owner?.user?.person?.email ?? null } };
  },

  async refresh(refreshToken) {
    const { status, json } = await post(env().NOTION_TOKEN_URL, { grant_type: "refresh_token", refresh_token: refreshToken });
    if (status === 400 && json.error === "invalid_grant") throw new ProviderGrantError(json.error_description ?? "invalid_grant");
    if (status !== 200 || !json.access_token) throw new Error(`Notion refused the refresh (HTTP ${status}): ${json.error ?? "no detail"}`);
    return tokens(json, refreshToken);
  },

  async revoke(token) {
    await post(env().NOTION_REVOCATION_URL, { token });
  },
};
