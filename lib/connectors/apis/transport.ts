// The wire under provider requests: node:http and node:https over keep-alive agents, one pair per
// process. A connector call makes one or two requests to the same few hosts; a kept connection
// spares each a TCP (and TLS) handshake, and the plain client builds no WHATWG Request, Response or
// stream per request (fetch's cost, measured in docs/performance.md, "Connector tools").
import http from "node:http";
import https from "node:https";
import { processWide } from "../../process-wide";

/** Sockets kept open per provider host, in use and idle together. */
export const PROVIDER_SOCKETS_PER_HOST = 64;
/** How long an idle kept socket stays open: providers close theirs after a few seconds to minutes. */
export const PROVIDER_IDLE_SOCKET_MS = 4_000;
/** The largest answer read from a provider: a page of results is tens of kilobytes. */
export const PROVIDER_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface ProviderWireRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface ProviderWireAnswer {
  status: number;
  /** A header's value, as `Headers.get` answers it (repeated values joined by ", "). */
  header(name: string): string | null;
  text: string;
}

/** Why a request got no answer: `timeout`/`aborted` when the signal ended it, `unreachable` for the network. */
export class ProviderWireError extends Error {
  constructor(
    readonly reason: "timeout" | "aborted" | "unreachable" | "too_large",
    detail: string,
    /** The socket error's code (ECONNRESET), and whether the socket was a kept one reused. */
    readonly socket: { code?: string; reusedSocket: boolean } = { reusedSocket: false },
  ) {
    super(detail);
    this.name = "ProviderWireError";
  }
}

const agents = processWide("connectors.provider-agents", () => {
  const options = { keepAlive: true, maxSockets: PROVIDER_SOCKETS_PER_HOST, timeout: PROVIDER_IDLE_SOCKET_MS, scheduling: "lifo" as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
});

/** Why `err` ended the request: the signal's reason when it ended it, else the network. */
function wireError(err: Error, signal: AbortSignal, reusedSocket: boolean): ProviderWireError {
  if (err instanceof ProviderWireError) return err;
  const socket = { code: (err as NodeJS.ErrnoException).code, reusedSocket };
  if (signal.aborted) {
    const timedOut = (signal.reason as { name?: string } | undefined)?.name === "TimeoutError";
    return new ProviderWireError(timedOut ? "timeout" : "aborted", "the request was ended before its answer", socket);
  }
  return new ProviderWireError("unreachable", err.message, socket);
}

function once(url: URL, request: ProviderWireRequest): Promise<ProviderWireAnswer> {
  const client = url.protocol === "https:" ? https : http;
  const agent = url.protocol === "https:" ? agents.https : agents.http;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body);
    // The signal ends the request wherever it is (node:http destroys it), answer half read included.
    const req = client.request(url, { method: request.method, headers, agent, signal: request.signal });
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(wireError(err, request.signal, req.reusedSocket));
      req.destroy();
    };
    req.on("error", fail);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > PROVIDER_MAX_ANSWER_BYTES) return fail(new ProviderWireError("too_large", `the answer is over ${PROVIDER_MAX_ANSWER_BYTES} bytes`));
        chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("close", () => {
        if (!res.complete) fail(new Error("the connection closed before the whole answer"));
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        const raw = res.headers;
        resolve({
          status: res.statusCode ?? 0,
          header(name) {
            const value = raw[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
          },
          text: Buffer.concat(chunks, size).toString("utf8"),
        });
      });
    });
    req.end(request.body);
  });
}

/**
 * One request and its whole answer. A GET whose kept socket the provider had already closed (reset
 * on reuse) is sent once more on a new one, as it never reached the provider; nothing else is retried.
 * Rejects with ProviderWireError.
 */
export async function sendToProvider(url: URL, request: ProviderWireRequest): Promise<ProviderWireAnswer> {
  try {
    return await once(url, request);
  } catch (err) {
    const { reason, socket } = err as ProviderWireError;
    if (request.method === "GET" && reason === "unreachable" && socket.reusedSocket && (socket.code === "ECONNRESET" || socket.code === "EPIPE")) return once(url, request);
    throw err;
  }
}
