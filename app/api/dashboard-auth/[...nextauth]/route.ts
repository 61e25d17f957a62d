// next-auth's own routes (session, CSRF token, provider callbacks, sign-out) for the developer dashboard's session.
import { dashboardHandlers } from "@/lib/developer-auth/session";

export const { GET, POST } = dashboardHandlers;
