// Per-request basics: the request id, the client's IP address and the JSON body under a size cap.
import { isIP, isIPv4, isIPv6 } from "node:net";
import { randomBase62 } from "../platform/crypto";
import { PREFIX } from "../platform/ids";
import { processWide } from "../process-wide";
import { ApiError, MESSAGES } from "./errors";

/** Default cap on a /v1 JSON body; routes may set their own (docs/api.md lists them). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export function newRequestId(): string {
  return PREFIX.request + randomBase62(20);
}

/**
 * The request header carrying the client's address. scripts/server.mjs sets it on every request
 * (stampClientIp), replacing any a client sent; nothing else in the process writes it, and proxy.ts
 * removes it wherever no such server runs (`next dev`), so a client can never choose its value.
 */
export const CLIENT_IP_HEADER = "x-service-client-ip";

/** What a per-IP limit sees when no server vouched for the address: one shared bucket for every such request. */
export const UNKNOWN_CLIENT_IP = "unknown";

/**
 * The client's address from the connection: the socket's peer, or, behind `trustedHops` reverse
 * proxies, the entry the outermost trusted proxy appended to X-Forwarded-For. Entries further left
 * are whatever the client sent and are never used. Not an IP address: UNKNOWN_CLIENT_IP.
 */
export function clientAddressOf(input: { socketAddress: string | undefined; forwardedFor: string | string[] | undefined; trustedHops: number }): string {
  const forwarded = (Array.isArray(input.forwardedFor) ? input.forwardedFor.join(",") : (input.forwardedFor ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, input.socketAddress ?? ""];
  return normaliseIp(chain[Math.max(0, chain.length - 1 - input.trustedHops)] ?? "");
}

function normaliseIp(value: string): string {
  const address = value
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  return isIP(address) ? address.toLowerCase() : UNKNOWN_CLIENT_IP;
}

// Set once this process's own server has stamped a request: from then on CLIENT_IP_HEADER is its word.
const stamping = processWide("http.client-ip-stamping", () => ({ on: false }));

/** Server side: replaces whatever CLIENT_IP_HEADER a request arrived with by the connection's own client address. */
export function stampClientIp(req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }, trustedHops: number): void {
  stamping.on = true;
  req.headers[CLIENT_IP_HEADER] = clientAddressOf({ socketAddress: req.socket.remoteAddress, forwardedFor: req.headers["x-forwarded-for"], trustedHops });
}

/** Whether a server in this process sets CLIENT_IP_HEADER (scripts/server.mjs); under `next dev` none does. */
export function clientIpStampedByServer(): boolean {
  return stamping.on;
}

/**
 * The client's address as the server recorded it (CLIENT_IP_HEADER). Absent or unreadable: fail
 * closed to UNKNOWN_CLIENT_IP, one bucket every such request shares, never a value the client chose.
 */
export function clientIp(req: { readonly headers: Pick<Headers, "get"> }): string {
  return clientIpFromHeaders(req.headers);
}

/** clientIp for callers that hold only the headers (server actions). */
export function clientIpFromHeaders(headers: Pick<Headers, "get">): string {
  return normaliseIp(headers.get(CLIENT_IP_HEADER) ?? "");
}

/** An IPv6 address's groups as written; a dotted IPv4 tail (64:ff9b::1.2.3.4) is its last two groups. */
function groupsOf(part: string | undefined): string[] {
  if (!part) return [];
  return part.split(":").flatMap((g) => {
    if (!isIPv4(g)) return [g];
    const [a, b, c, d] = g.split(".").map(Number) as [number, number, number, number];
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  });
}

/**
 * The key a per-IP limit counts a client address under: an IPv4 address as it is (an IPv4-mapped
 * IPv6 address as its IPv4), an IPv6 address as its network of `ipv6PrefixBits` (default /64, one
 * subscriber's allocation), so rotating through the addresses of one network does not multiply a limit.
 */
export function ipLimitKey(ip: string, ipv6PrefixBits = 64): string {
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  const groups = [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
  const kept = Math.ceil(ipv6PrefixBits / 16);
  const partial = ipv6PrefixBits % 16;
  return `${groups
    .slice(0, kept)
    .map((g, i) => (partial && i === kept - 1 ? g & (0xffff << (16 - partial)) & 0xffff : g).toString(16))
    .join(":")}::/${ipv6PrefixBits}`;
}

/** Reads a body as text, refusing bodies over `limit` bytes before buffering them whole. */
export async function readBodyText(req: Request, limit = DEFAULT_BODY_LIMIT_BYTES): Promise<string> {
  const tooLarge = () => new ApiError("payload_too_large", MESSAGES.payloadTooLarge, { limit_bytes: limit });
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The Bearer token, if any. An Authorization header that is not a Bearer token is a 401, not silence. */
export function bearerToken(req: { readonly headers: Pick<Headers, "get"> }): string | undefined {
  const header = req.headers.get("authorization")?.trim();
  if (!header) return undefined;
  const m = header.match(/^Bearer\s+(\S+)$/i);
  if (!m) throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  return m[1];
}
