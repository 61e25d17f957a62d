// Calls a route handler with a real Request, as Next.js would, and reads the answer — which must be one
// its contract declares (defineRoute responses), in the declared shape: every integration test that
// calls a route checks the contract the OpenAPI document is built from.
import type { RouteHandler, RouteMeta } from "@/lib/http/define-route";
import { ERROR_STATUS, type ErrorCode } from "@/lib/http/errors";

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
  const url = new URL(opts.path ?? meta?.path ?? "/", TEST_ORIGIN);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers({ "x-service-client-ip": "127.0.0.1" });
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
  if (meta) checkAnswer(meta, { status: res.status, body: parsed, contentType: res.headers.get("content-type") });
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Throws unless the answer is one the route's contract declares: its status, and its body's shape. */
export function checkAnswer(meta: RouteMeta, answer: { status: number; body: unknown; contentType: string | null }): void {
  const route = `${meta.method} ${meta.path}`;
  const json = (answer.contentType ?? "").includes("application/json");
  // An error status the contract declares with its own body (503 from GET /api/health) is checked like any answer.
  if (answer.status >= 400 && meta.responses[answer.status] === undefined) {
    if (!json) return; // a page for a browser (GET /oauth/authorize), not the API's answer
    const b = answer.body as { error?: unknown; error_description?: unknown; request_id?: unknown };
    const ok =
      meta.errorFamily === "api"
        ? typeof (b?.error as { code?: unknown } | undefined)?.code === "string" &&
          typeof (b.error as { message?: unknown }).message === "string" &&
          typeof b.request_id === "string"
        : typeof b?.error === "string" && typeof b.error_description === "string";
    if (!ok) throw new Error(`${route} answered ${answer.status} outside its error shape: ${JSON.stringify(answer.body)?.slice(0, 300)}`);
    if (meta.errorFamily === "api") {
      // The code is one the contract lists (what its checks imply, and the route's own errors), at its status.
      const code = (b.error as { code: ErrorCode }).code;
      if (!meta.errorCodes.includes(code) && code !== "internal_error")
        throw new Error(`${route} answered ${code}, which its contract does not list (errors: [${meta.errorCodes.join(", ")}])`);
      if (ERROR_STATUS[code] !== answer.status) throw new Error(`${route} answered ${code} with ${answer.status}, not ${ERROR_STATUS[code]}`);
    }
    return;
  }
  const schema = meta.responses[answer.status];
  if (schema === undefined) throw new Error(`${route} answered ${answer.status}, which its contract does not declare (responses: ${Object.keys(meta.responses).join(", ")})`);
  if (schema === null) {
    if (json) throw new Error(`${route} answered ${answer.status} with a JSON body its contract says it has none of`);
    return;
  }
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    throw new Error(
      `${route} answered ${answer.status} outside its declared schema:\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n")}`,
    );
  }
}
