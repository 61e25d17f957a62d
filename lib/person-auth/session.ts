// The person's own session on the service (next-auth, JWT strategy: a signed, encrypted cookie; the
// only thing stored server-side is the person's session version, which "sign out everywhere" raises
// and every read of the session checks, lib/person-auth/session-version.ts). A person signs in by entering the code sent to their phone: the
// hosted flow verifies it, then hands next-auth a sealed ticket naming the user, valid one minute,
// which never leaves the server. Google and GitHub sign-in (lib/person-auth/third-party.ts) only prove an
// address for the person already signed in.
import NextAuth from "next-auth";
import { getToken } from "next-auth/jwt";
import Credentials from "next-auth/providers/credentials";
import { db } from "../platform/db";
import { env } from "../env";
import { requestCookie, secureCookies } from "../http/cookies";
import { logger } from "../platform/log";
import { isCurrentVersion, SESSION_VERSION_CLAIM, UUID_PATTERN } from "./session-version";
import { openTicketOf, sealTicket } from "./tickets";
import { isThirdPartyProvider, recordThirdPartyEmail, returnFlowPath, thirdPartyProviders, verifiedAddress, verifyFlowCookie } from "./third-party";

/** How long a signed-in session lasts without a new sign-in. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const TICKET_PURPOSE = "session-ticket";
export const PHONE_CODE_PROVIDER = "phone-code";

/** A ticket for the user, created once the code has been verified. */
export function sessionTicket(userId: string): string {
  return sealTicket(TICKET_PURPOSE, userId);
}

/** The user a ticket names, or null when it is not one of ours or has expired. */
export function openTicket(ticket: unknown): string | null {
  return openTicketOf(TICKET_PURPOSE, ticket);
}

export const { handlers, auth, signIn, signOut } = NextAuth((req) => {
  // The person already signed in on this request, looked up once when a third-party sign-in needs it.
  let current: Promise<string | null> | undefined;
  const signedIn = () => (current ??= req ? sessionUserFromRequest(req) : Promise.resolve(null));
  const back = () => returnFlowPath(req ? requestCookie(req, verifyFlowCookie) : undefined);
  return {
    secret: env().AUTH_SECRET,
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/verify/error", error: "/verify/error" },
    // next-auth's own errors (a provider refusing or failing, say) go to the service's log.
    logger: { error: (err: Error) => logger().warn({ err: { type: err.name, message: err.message } }, "session sign-in error") },
    providers: [
      Credentials({
        id: PHONE_CODE_PROVIDER,
        name: "Phone number",
        credentials: { ticket: {} },
        authorize: async (credentials) => {
          const userId = openTicket(credentials?.ticket);
          return userId ? { id: userId } : null;
        },
      }),
      ...thirdPartyProviders(),
    ],
    callbacks: {
      // A Google or GitHub sign-in proves an address for the person signed in; it never signs
      // anybody in by itself.
      async signIn({ account, profile }) {
        if (!account || !isThirdPartyProvider(account.provider)) return true;
        const userId = await signedIn();
        if (!userId) return "/verify/error?error=SignedOut";
        const email = verifiedAddress(profile);
        if (!email) return back() ? `${back()}?verify_error=unverified&with=${account.provider}` : "/verify/error?error=Unverified";
        await recordThirdPartyEmail(userId, email);
        return true;
      },
      async jwt({ token, user, account }) {
        // The session keeps naming the phone number's account.
        if (account && isThirdPartyProvider(account.provider)) return stamped((await signedIn())!);
        if (user?.id) return stamped(user.id);
        return (await isCurrentSession(token)) ? token : null;
      },
      session({ session, token }) {
        if (token.sub) session.user = { ...session.user, id: token.sub };
        return session;
      },
    },
  };
});

/**
 * The signed-in person's user id from a request's session cookie (route handlers), or null: null too
 * for a cookie made before the person last signed out everywhere, or naming someone who is gone.
 */
export async function sessionUserFromRequest(req: Request): Promise<string | null> {
  const secure = secureCookies();
  const token = await getToken({ req, secret: env().AUTH_SECRET, secureCookie: secure, salt: secure ? "__Secure-authjs.session-token" : "authjs.session-token" });
  return typeof token?.sub === "string" && (await isCurrentSession(token)) ? token.sub : null;
}

async function storedVersion(userId: unknown): Promise<{ sessionVersion: number } | null> {
  if (typeof userId !== "string" || !UUID_PATTERN.test(userId)) return null;
  return (await db()).user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
}

/** Whether a decoded session token still signs its person in: the one check every session read makes. */
async function isCurrentSession(token: Record<string, unknown> | null): Promise<boolean> {
  return isCurrentVersion(token, await storedVersion(token?.sub));
}

/** A new session's token: the person and their sessions' version now. */
async function stamped(userId: string) {
  return { sub: userId, [SESSION_VERSION_CLAIM]: (await storedVersion(userId))?.sessionVersion ?? 0 };
}

/**
 * Signs the person out of every browser: their session version goes up, so every session cookie made
 * before (this browser's too) is refused from the next read on. Returns false when there is no such person.
 */
export async function signOutEverywhere(userId: string): Promise<boolean> {
  if (!UUID_PATTERN.test(userId)) return false;
  const res = await (await db()).user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  return res.count === 1;
}
