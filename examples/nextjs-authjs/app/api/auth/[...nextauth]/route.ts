// Auth.js's routes: sign-in, the OpenID Connect callback, session, CSRF token and sign-out.
import { handlers } from "../../../../auth";

export const { GET, POST } = handlers;
