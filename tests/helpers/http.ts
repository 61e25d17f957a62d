// Calls a route handler with a real Request, as Next.js would, and reads the answer.
import type { RouteHandler } from "@/lib/http/define-route";

export const TEST_ORIGIN = "http://localhost:3000";

export interface CallOptions {
  path?: string;
  method?: string;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string>;
  params?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(handler: (req: Request, ctx?: any) => Promise<Response>, opts: CallOptions = {}): Promise<CallResult<T>> {
  const meta = (handler as Partial<RouteHandler>).meta;
  const url = new URL((opts.path ?? meta?.path ?? "/"), TEST_ORIGIN);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers({ "x-forwarded-for": "127.0.0.1" });
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers.set(k, v);
  const method = opts.method ?? meta?.method ?? "GET";
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const req = new Request(url, { method, headers, body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Non-JSON answers are returned as text.
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
