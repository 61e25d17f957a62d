// What a route's steps read of a request, and what they answer, without the web Request and Response
// objects: the API fast path (./node-dispatch.ts) serves from node:http, where building those objects
// and reading an answer's body back out of one cost more than a short JSON request's own work
// (docs/performance.md, "The read against its ceiling"). Next.js hands route handlers a web Request;
// that becomes an ApiRequest here, and an answer becomes a web Response at the edge.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { ApiError, MESSAGES } from "./errors";
import { DEFAULT_BODY_LIMIT_BYTES, readBodyText } from "./request";

/** The request headers, read by name (case-insensitive). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request as a route's steps read it. */
export interface ApiRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** The body as UTF-8 text, refused with payload_too_large past `limit` bytes. */
  bodyText(limit: number): Promise<string>;
  /** The request as a web Request (a handler that passes it on), made once on first use. */
  web(): Request;
}

/** A web Request (Next.js's, a test's) as an ApiRequest. */
export function webApiRequest(req: Request): ApiRequest {
  return { method: req.method, url: req.url, headers: req.headers, bodyText: (limit) => readBodyText(req, limit), web: () => req };
}

/** Reads and parses a JSON body under a size cap. */
export async function readJsonBody(req: ApiRequest, limit = DEFAULT_BODY_LIMIT_BYTES): Promise<unknown> {
  const type = req.headers.get("content-type");
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError("unsupported_media_type", MESSAGES.unsupportedMediaType);
  }
  const text = await req.bodyText(limit);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", MESSAGES.invalidJson);
  }
}

/** Bodies declared at most this long are read whole before the steps run (a web stream costs more than they do). */
export const SMALL_BODY_BYTES = 64 * 1024;

function readSmallBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    // node:http joins repeated headers itself, but for Set-Cookie; a web Headers joins with ", ".
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

class NodeApiRequest implements ApiRequest {
  readonly headers: NodeHeaders;
  private made?: Request;

  constructor(
    private readonly incoming: IncomingMessage,
    readonly method: string,
    readonly url: string,
    /** The body, read whole when it was small and sized; undefined when it streams. */
    private readonly small: Buffer | undefined,
  ) {
    this.headers = new NodeHeaders(incoming.headers);
  }

  bodyText(limit: number): Promise<string> {
    if (this.small === undefined) return readBodyText(this.web(), limit);
    // The small body's size was declared and is checked the same way as a streamed one's.
    return this.small.byteLength > limit ? readBodyText(this.web(), limit) : Promise.resolve(this.small.toString("utf8"));
  }

  web(): Request {
    if (this.made) return this.made;
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.incoming.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    }
    const { method, url } = this;
    if (method === "GET" || method === "HEAD") this.made = new Request(url, { method, headers });
    else if (this.small !== undefined) this.made = new Request(url, { method, headers, body: this.small as unknown as BodyInit });
    // Larger or unsized bodies stream, so a route's size cap stops them before they are buffered.
    else this.made = new Request(url, { method, headers, body: Readable.toWeb(this.incoming) as ReadableStream<Uint8Array>, duplex: "half" } as RequestInit);
    return this.made;
  }
}

/** A node:http request as an ApiRequest; a small sized body is read first. */
export async function nodeApiRequest(req: IncomingMessage, origin: string): Promise<ApiRequest> {
  const method = req.method ?? "GET";
  const url = origin + (req.url ?? "/");
  if (method === "GET" || method === "HEAD") return new NodeApiRequest(req, method, url, undefined);
  const declared = Number(req.headers["content-length"]);
  const small = Number.isInteger(declared) && declared <= SMALL_BODY_BYTES && !req.headers["transfer-encoding"] ? await readSmallBody(req) : undefined;
  return new NodeApiRequest(req, method, url, small);
}

/** An answer's headers, kept by lower-case name (the answers of the fast path carry no Set-Cookie). */
export class AnswerHeaders {
  private readonly map = new Map<string, string>();

  constructor(init?: Record<string, string>) {
    if (init) for (const [name, value] of Object.entries(init)) this.map.set(name.toLowerCase(), value);
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.map.set(name.toLowerCase(), value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.map.get(key);
    this.map.set(key, current === undefined ? value : `${current}, ${value}`);
  }

  forEach(use: (value: string, name: string) => void): void {
    this.map.forEach(use);
  }
}

/**
 * A handler's JSON answer (or an empty one), serialized once and not yet a web Response: the fast path
 * writes its text to the socket as it is; Next.js gets a Response made of it.
 */
export class JsonAnswer {
  readonly headers: AnswerHeaders;

  constructor(
    readonly status: number,
    /** The JSON text; null for an answer without a body. */
    readonly text: string | null,
    headers?: Record<string, string>,
  ) {
    this.headers = new AnswerHeaders(headers);
    if (text !== null && !this.headers.has("content-type")) this.headers.set("Content-Type", "application/json");
  }

  toResponse(): Response {
    const headers = new Headers();
    this.headers.forEach((value, name) => headers.set(name, value));
    return new Response(this.text, { status: this.status, headers });
  }
}

/** What a route answers: a web Response (a handler's own, an error), or a JSON answer. */
export type Answer = Response | JsonAnswer;

/** An answer as a web Response. */
export function toWebResponse(answer: Answer): Response {
  return answer instanceof JsonAnswer ? answer.toResponse() : answer;
}
