// The developer dashboard's session: a next-auth instance of its own, apart from the person's
// (lib/person-auth/session.ts): its routes under /api/dashboard-auth, its own cookie names (dashboard.*),
// and its own secret derived from AUTH_SECRET, so neither session can be read as the other. JWT
// strategy: a signed, encrypted cookie naming the dashboard user and their session version; the
// version stored server-side, raised by "sign out everywhere", is checked at every read.
// Ways in: the e-mailed code or link (lib/developer-auth/codes.ts verifies it and hands next-auth a
// sealed ticket, valid one minute, which never leaves the server), and Google or GitHub when
// configured (the address the provider says it verified).
import { hkdfSync } from "node:crypto";
import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { isThirdPartyProvider, thirdPartyProviders, verifiedAddress } from "../person-auth/third-party";
import { isCurrentVersion, SESSION_VERSION_CLAIM, UUID_PATTERN } from "../person-auth/session-version";
import { openTicketOf, sealTicket } from "../person-auth/tickets";
import { db } from "../platform/db";
import { env } from "../env";
import { cookieAttributes } from "../http/cookies";
import { logger } from "../platform/log";
import { dashboardUserFor } from "./codes";

/** How long a dashboard session lasts without a new sign-in (it renews while used, at most hourly). */
export const DASHBOARD_SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;
export const DASHBOARD_AUTH_BASE_PATH = "/api/dashboard-auth";
export const DASHBOARD_CODE_PROVIDER = "dashboard-code";
/** The dashboard session cookie's name (with __Secure- in front on https). */
export const DASHBOARD_SESSION_COOKIE = "dashboard.session-token";
const TICKET_PURPOSE = "dashboard-session-ticket";

/** A ticket naming the dashboard user, made once their code (or provider) has proven the address. */
export function dashboardTicket(dashboardUserId: string): string {
  return sealTicket(TICKET_PURPOSE, dashboardUserId);
}

/** The dashboard user a ticket names, or null when it is not one of ours or has expired. */
export function openDashboardTicket(ticket: unknown): string | null {
  return openTicketOf(TICKET_PURPOSE, ticket);
}

/** The dashboard session's secret: derived from AUTH_SECRET, never the person's session key. */
export function dashboardSessionSecret(): string {
  return Buffer.from(hkdfSync("sha256", env().AUTH_SECRET, "profile-service", "dashboard-session", 32)).toString("base64url");
}

/** The dashboard's cookie names: dashboard.*, with next-auth's prefixes on https. */
export function dashboardCookies() {
  const options = { ...cookieAttributes(), path: "/" };
  const prefix = options.secure ? "__Secure-" : "";
  return {
    sessionToken: { name: `${prefix}${DASHBOARD_SESSION_COOKIE}`, options },
    callbackUrl: { name: `${prefix}dashboard.callback-url`, options },
    csrfToken: { name: `${options.secure ? "__Host-" : ""}dashboard.csrf-token`, options },
    pkceCodeVerifier: { name: `${prefix}dashboard.pkce.code_verifier`, options: { ...options, maxAge: 900 } },
    state: { name: `${prefix}dashboard.state`, options: { ...options, maxAge: 900 } },
    nonce: { name: `${prefix}dashboard.nonce`, options },
  };
}

export const {
  handlers: dashboardHandlers,
  auth: dashboardAuth,
  signIn: dashboardSignIn,
  signOut: dashboardSignOut,
} = NextAuth(() => ({
  basePath: DASHBOARD_AUTH_BASE_PATH,
  secret: dashboardSessionSecret(),
  trustHost: true,
  cookies: dashboardCookies(),
  session: { strategy: "jwt", maxAge: DASHBOARD_SESSION_MAX_AGE_SECONDS, updateAge: 60 * 60 },
  pages: { signIn: "/dashboard/sign-in", error: "/dashboard/sign-in" },
  logger: {
    error: (err: Error) => logger().warn({ err: { type: err.name, message: err.message } }, "dashboard sign-in error"),
    // AUTH_URL names the person's instance (/api/auth); only its origin is used for this one, whose
    // base path differs by design, so that warning says nothing.
    warn: (code: string) => {
      if (code !== "env-url-basepath-mismatch") logger().warn({ code }, "dashboard sign-in warning");
    },
  },
  providers: [
    Credentials({
      id: DASHBOARD_CODE_PROVIDER,
      name: "E-mailed code",
      credentials: { ticket: {} },
      authorize: async (credentials) => {
        const id = openDashboardTicket(credentials?.ticket);
        return id ? { id } : null;
      },
    }),
    ...thirdPartyProviders(),
  ],
  callbacks: {
    // Google or GitHub signs in only with an address it says it verified.
    signIn({ account, profile }) {
      if (!account || !isThirdPartyProvider(account.provider)) return true;
      return verifiedAddress(profile) ? true : "/dashboard/sign-in?error=unverified";
    },
    async jwt({ token, user, account, profile }) {
      if (account && isThirdPartyProvider(account.provider)) {
        const email = verifiedAddress(profile);
        if (!email) return null;
        return stamped((await dashboardUserFor(email)).id);
      }
      if (user?.id) return stamped(user.id);
      return isCurrentVersion(token, await storedVersion(token.sub)) ? token : null;
    },
    session({ session, token }) {
      if (token.sub) session.user = { ...session.user, id: token.sub };
      return session;
    },
  },
}));

async function storedVersion(dashboardUserId: unknown): Promise<{ sessionVersion: number } | null> {
  if (typeof dashboardUserId !== "string" || !UUID_PATTERN.test(dashboardUserId)) return null;
  return (await db()).dashboardUser.findUnique({ where: { id: dashboardUserId }, select: { sessionVersion: true } });
}

/** A new dashboard session's token: the user and their sessions' version now. */
async function stamped(dashboardUserId: string) {
  return { sub: dashboardUserId, [SESSION_VERSION_CLAIM]: (await storedVersion(dashboardUserId))?.sessionVersion ?? 0 };
}

/**
 * The signed-in dashboard user (id and address), read from the request's dashboard session cookie, or
 * null. Every dashboard page and server action starts here: a user removed since is signed out, and
 * so is a session made before they last signed out everywhere (checked by the session read itself).
 */
export async function currentDashboardUser(): Promise<{ id: string; email: string } | null> {
  const id = (await dashboardAuth())?.user?.id;
  if (!id || !UUID_PATTERN.test(id)) return null;
  return (await db()).dashboardUser.findUnique({ where: { id }, select: { id: true, email: true } });
}

/**
 * Signs a dashboard user out of every browser: their session version goes up, so every dashboard
 * session made before (this browser's too) is refused from the next read on.
 */
export async function signOutDashboardEverywhere(dashboardUserId: string): Promise<void> {
  if (!UUID_PATTERN.test(dashboardUserId)) return;
  await (await db()).dashboardUser.updateMany({ where: { id: dashboardUserId }, data: { sessionVersion: { increment: 1 } } });
}
