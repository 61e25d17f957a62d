// The service's cookies, under one policy: every cookie is HttpOnly and SameSite=Lax, carries Secure
// when BASE_URL is https, and has the path and lifetime its definition names. Each cookie is defined
// once, beside what it belongs to (defineCookie); it is read, set and cleared only through the
// functions here, either in a page's or server action's request scope (next/headers) or on a route
// handler's own Request and Response (so those also run outside Next.js, on the fast path).
import { env } from "../env";

/** A cookie of the service: its name, the path the browser sends it back under, and its lifetime. */
export interface CookieDefinition {
  readonly name: string;
  readonly path: string;
  /** Seconds it lives; absent: until the browser closes. */
  readonly maxAge?: number;
}

/** A cookie's one definition. */
export function defineCookie(definition: CookieDefinition): CookieDefinition {
  return Object.freeze({ ...definition });
}

/** Whether cookies carry Secure: the service is served over https. */
export function secureCookies(): boolean {
  return env().BASE_URL.startsWith("https:");
}

/** The attributes every cookie has, as next/headers and next-auth take them. */
export function cookieAttributes(): { httpOnly: true; sameSite: "lax"; secure: boolean } {
  return { httpOnly: true, sameSite: "lax", secure: secureCookies() };
}

// ── Route handlers: the Cookie and Set-Cookie headers ──────────────────────────────────────────

/** The value a Cookie header holds under `name` (the first, as browsers send the most specific path first). */
export function cookieFromHeader(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A cookie's value in a request, or undefined. */
export function requestCookie(req: Request, cookie: CookieDefinition): string | undefined {
  return cookieFromHeader(req.headers.get("cookie"), cookie.name);
}

function serialize(cookie: CookieDefinition, value: string, maxAge: number | undefined): string {
  const lifetime = maxAge === undefined ? "" : `; Max-Age=${maxAge}`;
  return `${cookie.name}=${value}; Path=${cookie.path}${lifetime}; HttpOnly; SameSite=Lax${secureCookies() ? "; Secure" : ""}`;
}

/** The Set-Cookie header value that sets a cookie (its value is one the service made: no encoding). */
export function setCookieHeader(cookie: CookieDefinition, value: string): string {
  return serialize(cookie, value, cookie.maxAge);
}

/** The Set-Cookie header value that clears a cookie. */
export function clearCookieHeader(cookie: CookieDefinition): string {
  return serialize(cookie, "", 0);
}

// ── Pages and server actions: the request scope (next/headers, loaded when first used) ─────────

async function jar() {
  return (await import("next/headers")).cookies();
}

/** A cookie's value in this request, or undefined. */
export async function readCookie(cookie: CookieDefinition): Promise<string | undefined> {
  return (await jar()).get(cookie.name)?.value;
}

/** Sets a cookie on this request's answer (a server action's or route handler's). */
export async function writeCookie(cookie: CookieDefinition, value: string): Promise<void> {
  (await jar()).set(cookie.name, value, { ...cookieAttributes(), path: cookie.path, ...(cookie.maxAge === undefined ? {} : { maxAge: cookie.maxAge }) });
}

/** Clears a cookie on this request's answer. */
export async function clearCookie(cookie: CookieDefinition): Promise<void> {
  (await jar()).delete({ name: cookie.name, path: cookie.path });
}
