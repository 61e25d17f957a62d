// Google and GitHub sign-in as proof of the person's e-mail address. A person already signed in
// with their phone number signs in at Google or GitHub (next-auth's providers, endpoints from
// configuration); the address the provider says it has verified becomes the account's address,
// with proof "third_party". It never creates or switches the account: the phone number stays the
// key to it.
import type { Provider } from "next-auth/providers";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { z } from "zod";
import { db } from "../platform/db";
import { env } from "../env";
import { defineCookie } from "../http/cookies";

export const THIRD_PARTY_PROVIDERS = ["google", "github"] as const;
export type ThirdPartyProvider = (typeof THIRD_PARTY_PROVIDERS)[number];

export const THIRD_PARTY_NAMES: Record<ThirdPartyProvider, string> = { google: "Google", github: "GitHub" };

/** The cookie naming the flow a third-party sign-in returns to (set when it starts, 15 minutes). */
export const VERIFY_FLOW_COOKIE = "service_verify_flow";
/** Set on path / (the provider sends the browser back to next-auth's routes), for a flow's life. */
export const verifyFlowCookie = defineCookie({ name: VERIFY_FLOW_COOKIE, path: "/", maxAge: 15 * 60 });

/** The flow page a third-party sign-in goes back to, from the cookie's value; null when none. */
export function returnFlowPath(cookieValue: string | undefined): string | null {
  return cookieValue && /^[A-Za-z0-9]{32}$/.test(cookieValue) ? `/flow/${cookieValue}` : null;
}

export function isThirdPartyProvider(id: unknown): id is ThirdPartyProvider {
  return typeof id === "string" && (THIRD_PARTY_PROVIDERS as readonly string[]).includes(id);
}

/** The providers with credentials on this service, in the order they are offered. */
export function configuredThirdParty(): ThirdPartyProvider[] {
  const e = env();
  const out: ThirdPartyProvider[] = [];
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) out.push("google");
  if (e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET) out.push("github");
  return out;
}

const githubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

/** next-auth provider configurations for the configured providers. */
export function thirdPartyProviders(): Provider[] {
  const e = env();
  const providers: Provider[] = [];
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) {
    providers.push(
      Google({
        clientId: e.GOOGLE_CLIENT_ID,
        clientSecret: e.GOOGLE_CLIENT_SECRET,
        issuer: e.GOOGLE_ISSUER,
        authorization: { url: e.GOOGLE_AUTHORIZATION_URL, params: { scope: "openid email" } },
        token: e.GOOGLE_TOKEN_URL,
        userinfo: e.GOOGLE_USERINFO_URL,
        client: { token_endpoint_auth_method: "client_secret_post" },
        checks: ["pkce", "state"],
      }),
    );
  }
  if (e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET) {
    const web = e.GITHUB_URL.replace(/\/$/, "");
    const api = e.GITHUB_API_URL.replace(/\/$/, "");
    providers.push(
      GitHub({
        clientId: e.GITHUB_CLIENT_ID,
        clientSecret: e.GITHUB_CLIENT_SECRET,
        issuer: `${web}/login/oauth`,
        authorization: { url: `${web}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
        token: `${web}/login/oauth/access_token`,
        checks: ["pkce", "state"],
        userinfo: {
          url: `${api}/user`,
          // The account's public address is not necessarily verified: the primary address is taken
          // from the list of addresses, with GitHub's own verified flag.
          async request({ tokens }: { tokens: { access_token?: string } }) {
            const headers = { authorization: `Bearer ${tokens.access_token}`, accept: "application/vnd.github+json", "user-agent": "profile-service" };
            const user = (await (await fetch(`${api}/user`, { headers })).json()) as Record<string, unknown>;
            const res = await fetch(`${api}/user/emails`, { headers });
            const emails = res.ok ? githubEmails.safeParse(await res.json()) : null;
            const primary = emails?.success ? emails.data.find((m) => m.primary) : undefined;
            return { ...user, email: primary?.email ?? null, email_verified: primary?.verified === true };
          },
        },
      }),
    );
  }
  return providers;
}

const address = z.string().trim().toLowerCase().max(320).pipe(z.email());

/**
 * The address a provider's profile vouches for, or null. Google's ID token carries email_verified;
 * for GitHub it is the primary address's verified flag, read by the userinfo request above.
 */
export function verifiedAddress(profile: Record<string, unknown> | undefined): string | null {
  if (!profile || profile.email_verified !== true) return null;
  const parsed = address.safeParse(profile.email);
  return parsed.success ? parsed.data : null;
}

/** Records the address as the account's, proven by a third-party sign-in. */
export async function recordThirdPartyEmail(userId: string, email: string): Promise<void> {
  await (await db()).user.update({ where: { id: userId }, data: { email, emailProof: "third_party" } });
}
