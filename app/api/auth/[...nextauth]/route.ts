// next-auth's own routes (session, CSRF token, sign-out) for the person's session.
import { handlers } from "@/lib/person-auth/session";

export const { GET, POST } = handlers;
