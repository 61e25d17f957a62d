// Per-request basics: the request id, the client's IP address and the JSON body under a size cap.
import { isIPv4, isIPv6 } from "node:net";
import { randomBase62 } from "../crypto";
import { env } from "../env";
import { PREFIX } from "../ids";
import { ApiError, MESSAGES } from "./errors";

/** Default cap on a /v1 JSON body; routes may set their own (docs/api.md lists them). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export function newRequestId(): string {
  return PREFIX.request + randomBase62(20);
}

/**
 * The client's address. scripts/server.mjs appends each connection's peer address to
 * X-Forwarded-For, so the last entry is the direct peer; each trusted reverse proxy in front
 * (TRUSTED_PROXY_HOPS) appended one more entry before it. Entries further left are client-supplied.
 */
export function clientIp(req: Request): string {
  const parts = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const hops = env().TRUSTED_PROXY_HOPS;
  return parts[Math.max(0, parts.length - 1 - hops)] ?? "unknown";
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
 * IPv6 address as its IPv4), an IPv6 address as its /64 network — one subscriber's allocation, so
 * rotating through the addresses of one /64 does not multiply a limit.
 */
export function ipLimitKey(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return `${[...left, ...zeros, ...right]
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
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

/** Reads and parses a JSON body under a size cap. */
export async function readJsonBody(req: Request, limit = DEFAULT_BODY_LIMIT_BYTES): Promise<unknown> {
  const type = req.headers.get("content-type");
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError("unsupported_media_type", MESSAGES.unsupportedMediaType);
  }
  const text = await readBodyText(req, limit);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", MESSAGES.invalidJson);
  }
}
