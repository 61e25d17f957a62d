// The person's own session on the service (next-auth, JWT strategy: a signed, encrypted cookie,
// nothing stored server-side). A person signs in by entering the code sent to their phone: the
// hosted flow verifies it, then hands next-auth a sealed ticket naming the user, valid one minute,
// which never leaves the server.
import NextAuth from "next-auth";
import { getToken } from "next-auth/jwt";
import Credentials from "next-auth/providers/credentials";
import { now as clockNow } from "../clock";
import { openSecret, sealSecret } from "../crypto";
import { env } from "../env";

/** How long a signed-in session lasts without a new sign-in. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const TICKET_PURPOSE = "session-ticket";
const TICKET_TTL_MS = 60_000;
export const PHONE_CODE_PROVIDER = "phone-code";

/** A ticket for the user, created once the code has been verified. */
export function sessionTicket(userId: string): string {
  return sealSecret(TICKET_PURPOSE, JSON.stringify({ u: userId, e: clockNow().getTime() + TICKET_TTL_MS }));
}

/** The user a ticket names, or null when it is not one of ours or has expired. */
export function openTicket(ticket: unknown): string | null {
  if (typeof ticket !== "string") return null;
  try {
    const { u, e } = JSON.parse(openSecret(TICKET_PURPOSE, ticket)) as { u?: unknown; e?: unknown };
    return typeof u === "string" && typeof e === "number" && e > clockNow().getTime() ? u : null;
  } catch {
    return null;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: env().AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
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
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user = { ...session.user, id: token.sub };
      return session;
    },
  },
}));

/** The signed-in person's user id from a request's session cookie (route handlers), or null. */
export async function sessionUserFromRequest(req: Request): Promise<string | null> {
  const secure = env().BASE_URL.startsWith("https:");
  const token = await getToken({ req, secret: env().AUTH_SECRET, secureCookie: secure, salt: secure ? "__Secure-authjs.session-token" : "authjs.session-token" });
  return typeof token?.sub === "string" ? token.sub : null;
}
