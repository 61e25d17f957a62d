// Which public address a request came to. With the defaults every address is a path on BASE_URL;
// when MCP_URL or SIGN_IN_URL is its own host, requests to that host map onto the same app.

/** Where each public address is mounted inside the app. */
export const INTERNAL_MOUNTS = { signIn: "/sign-in", mcp: "/personal-mcp" } as const;
/** Where protected-resource metadata is published (RFC 9728 § 3.1), before the resource's path. */
export const RESOURCE_METADATA_ROOT = "/.well-known/oauth-protected-resource";

export interface PublicAddresses {
  BASE_URL: string;
  MCP_URL: string;
  SIGN_IN_URL: string;
}

/**
 * The app path serving a request, or null when the request needs no rewrite. A request to the
 * sign-in host at /<agent> is served by /sign-in/<agent>; one to the MCP host at /connect/<id>
 * by /personal-mcp/connect/<id>.
 */
export function rewriteForHost(requestUrl: URL, addresses: PublicAddresses): string | null {
  const base = new URL(addresses.BASE_URL);
  for (const [address, mount] of [
    [addresses.SIGN_IN_URL, INTERNAL_MOUNTS.signIn],
    [addresses.MCP_URL, INTERNAL_MOUNTS.mcp],
  ] as const) {
    const pub = new URL(address);
    if (pub.host === base.host || pub.host !== requestUrl.host) continue;
    const prefix = pub.pathname.replace(/\/+$/, "");
    // The endpoint's protected-resource metadata sits at the host's root (RFC 9728 § 3.1).
    if (mount === INTERNAL_MOUNTS.mcp && requestUrl.pathname === `${RESOURCE_METADATA_ROOT}${prefix}`) return `${RESOURCE_METADATA_ROOT}${mount}`;
    if (prefix && requestUrl.pathname !== prefix && !requestUrl.pathname.startsWith(`${prefix}/`)) return null;
    const rest = requestUrl.pathname.slice(prefix.length);
    return `${mount}${rest === "/" ? "" : rest}`;
  }
  return null;
}

/**
 * Where a request that reached a separately hosted MCP_URL or SIGN_IN_URL continues on BASE_URL (the
 * same app path), or null when it already came to the service's own host. Cookies (a flow's, the
 * person's session) belong to BASE_URL's host, so a flow is started there.
 */
export function serviceAddressFor(requestHost: string, appPath: string, addresses: PublicAddresses): string | null {
  const base = new URL(addresses.BASE_URL);
  for (const address of [addresses.MCP_URL, addresses.SIGN_IN_URL]) {
    const pub = new URL(address);
    if (pub.host !== base.host && pub.host === requestHost.toLowerCase()) return `${addresses.BASE_URL}${appPath}`;
  }
  return null;
}

/** The answer to a development page asked for under another name (421 Misdirected Request). */
export const DEVELOPMENT_HOST_REFUSED = "The development pages answer only at this service's own addresses.";

/** Names that always mean this machine: a page elsewhere cannot make a browser send them (DNS rebinding). */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a request's Host header may reach the development surfaces (/dev/*): one of the service's
 * configured hosts (BASE_URL's, SIGN_IN_URL's, MCP_URL's, port included), or localhost, 127.0.0.1 or
 * [::1] on any port. A page on another site that rebinds its own name to this machine still sends
 * its own name, and is refused.
 */
export function developmentHostAllowed(host: string | null, addresses: PublicAddresses): boolean {
  if (!host || /[\s/\\?#@]/.test(host)) return false;
  let requested: URL;
  try {
    requested = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (LOOPBACK_HOSTNAMES.has(requested.hostname)) return true;
  return [addresses.BASE_URL, addresses.SIGN_IN_URL, addresses.MCP_URL].some((a) => new URL(a).host === requested.host);
}
