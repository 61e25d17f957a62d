// Requests the service makes to addresses others chose (completion callbacks, webhooks, MCP clients'
// metadata documents): resolved first, refused outside development mode when any address is private, loopback,
// link-local or reserved, then sent to exactly the addresses checked, so a second DNS answer cannot
// move the connection elsewhere. node:http never follows a redirect.
import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import type { IncomingHttpHeaders } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { developmentMode } from "../env";

export interface PinnedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, when asked for (readBody): at most maxBytes, or null when it was longer. */
  body: Buffer | null;
}

/**
 * Sends one request to the addresses that were checked (its own lookup answers them); TLS still
 * verifies the URL's host name. The body is read only with readBody, up to maxBytes: a longer one
 * answers body null and the connection is dropped.
 */
export function pinnedRequest(input: {
  url: URL;
  addresses: LookupAddress[];
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  readBody?: { maxBytes: number };
}): Promise<PinnedResponse> {
  const first = input.addresses[0]!;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, input.addresses);
    else callback(null, first.address, first.family);
  };
  const send = input.url.protocol === "https:" ? httpsRequest : httpRequest;
  const headers = input.body === undefined ? input.headers : { ...input.headers, "Content-Length": String(Buffer.byteLength(input.body)) };
  return new Promise((resolve, reject) => {
    const req = send(input.url, { method: input.method, headers, lookup: pinned, signal: input.signal, agent: false }, (res) => {
      const answer = { status: res.statusCode ?? 0, headers: res.headers };
      if (!input.readBody) {
        resolve({ ...answer, body: null });
        res.destroy();
        return;
      }
      const limit = input.readBody.maxBytes;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          resolve({ ...answer, body: null });
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => resolve({ ...answer, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(input.body);
  });
}

/** Every address of `hostname` (an IP literal answers itself), within the try's budget. */
export async function resolveHost(hostname: string, signal: AbortSignal): Promise<LookupAddress[]> {
  signal.throwIfAborted();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([lookup(hostname, { all: true, verbatim: true }), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Addresses the service never calls outside development mode: anything but public unicast. */
const REFUSED_RANGES = (() => {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ["0.0.0.0", 8], // "this network"
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local (cloud metadata services)
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // protocol assignments
    ["192.0.2.0", 24], // documentation
    ["198.51.100.0", 24], // documentation
    ["203.0.113.0", 24], // documentation
    ["192.168.0.0", 16], // private
    ["198.18.0.0", 15], // benchmarking
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, broadcast
  ];
  const v6: Array<[string, number]> = [
    ["::", 128], // unspecified
    ["::1", 128], // loopback
    ["fc00::", 7], // unique local
    ["fe80::", 10], // link-local
    ["fec0::", 10], // site-local (deprecated)
    ["64:ff9b:1::", 48], // local-use IPv4/IPv6 translation
    ["100::", 64], // discard-only
    ["2001:db8::", 32], // documentation
    ["ff00::", 8], // multicast
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, "ipv6");
  return list;
})();

/**
 * Whether the service may not call `address` outside development mode: private, loopback, link-local,
 * carrier-grade NAT, unspecified, multicast or reserved, IPv4 inside IPv6 (mapped ::ffff:0:0/96,
 * IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16) judged as its IPv4, and anything not an IP.
 */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED_RANGES.check(address, "ipv4");
  // A zone index (fe80::1%eth0) only ever names a link-local address.
  if (family !== 6 || address.includes("%")) return true;
  // IPv4-mapped addresses are judged by the IPv4 ranges here too.
  if (REFUSED_RANGES.check(address, "ipv6")) return true;
  const embedded = embeddedIpv4(ipv6Words(address));
  return embedded !== null && REFUSED_RANGES.check(embedded, "ipv4");
}

/** The eight 16-bit words of a valid IPv6 address (a trailing dotted quad allowed). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const words = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return words.map((w) => parseInt(w, 16));
}

function embeddedIpv4(w: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zero(0, 6) || (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6))) return v4(w[6]!, w[7]!);
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!);
  return null;
}

const LOCAL_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The rule for a web address a developer registers for the service to call or send a browser to
 * (return destinations, webhook endpoints): https with a host, or http on localhost only, without
 * credentials; answered without its fragment, or null when it may not be one.
 */
export function registrableWebUrl(input: URL): string | null {
  const url = new URL(input.href);
  if (url.username || url.password) return null;
  url.hash = "";
  if (url.protocol === "https:") return url.hostname ? url.toString() : null;
  if (url.protocol === "http:") return LOCAL_HOSTS.has(url.hostname) ? url.toString() : null;
  return null;
}

/** What one POST to a developer's address came to: an answer (any status), refused before sending, or no answer. */
export type OutboundOutcome = { kind: "answered"; status: number } | { kind: "refused"; reason: string } | { kind: "failed"; reason: string };

/**
 * One POST to an http(s) address a developer registered (completion callbacks, webhooks): the host is
 * resolved within the try's budget, refused outside development mode when any of its addresses is
 * private, loopback, link-local or reserved, and the request goes to exactly the addresses checked, with
 * no redirect followed. `prepare` makes the headers and body once the address passed (a signature's
 * time, a token minted only for a request that is sent). Never throws for the network's sake.
 */
export async function postToRegisteredAddress(input: {
  url: string;
  timeoutMs: number;
  prepare: () => Promise<{ headers: Record<string, string>; body: string }>;
}): Promise<OutboundOutcome> {
  const url = URL.canParse(input.url) ? new URL(input.url) : null;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return { kind: "refused", reason: "not an http(s) address" };
  const signal = AbortSignal.timeout(input.timeoutMs);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(url.hostname.replace(/^\[(.*)\]$/, "$1"), signal);
  } catch (err) {
    return { kind: "failed", reason: describeFailure(err, signal, input.timeoutMs, "DNS lookup failed") };
  }
  if (!addresses.length) return { kind: "failed", reason: "DNS lookup found no address" };
  if (!developmentMode() && addresses.some((a) => isRefusedAddress(a.address))) {
    return { kind: "refused", reason: "the host resolves to a private, loopback, link-local or reserved address" };
  }
  const { headers, body } = await input.prepare();
  try {
    const { status } = await pinnedRequest({ url, addresses, method: "POST", headers, body, signal });
    return { kind: "answered", status };
  } catch (err) {
    return { kind: "failed", reason: describeFailure(err, signal, input.timeoutMs, "connection failed") };
  }
}

/** Why an answered status is not a success, in a few words: a redirect is named as one not followed. */
export function describeStatus(status: number): string {
  return status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
}

/** A short reason, without secrets: an error code, never a message that might quote the request. */
function describeFailure(err: unknown, signal: AbortSignal, timeoutMs: number, what: string): string {
  if (signal.aborted) return `timed out after ${timeoutMs / 1000} s`;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code) ? `${what} (${code})` : what;
}
