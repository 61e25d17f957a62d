// defineRoute: one contract per /v1 operation — its auth, its zod schemas, its limits, its handler.
import { z } from "zod";
import type { ResolvedKey } from "../api-keys/api-keys";
import { recordAccess } from "../access-log/access-log";
import { now as clockNow } from "../clock";
import { recordRequest } from "../request-log/record";
import { logger, requestLogger } from "../log";
import type { Limiter } from "../ratelimit";
import {
  authenticateKey,
  requireTestPlane,
  resolveAgent,
  resolveUser,
  type KeyRequirement,
  type ResolvedAgent,
  type ResolvedUser,
} from "./credentials";
import { applyCors, type CorsPolicy } from "./cors";
import { ApiError, errorBody, MESSAGES, type ErrorCode } from "./errors";
import { clientIp, ipLimitKey, newRequestId, readJsonBody } from "./request";
import { unsafeTextField, unsafeTextProblem } from "./text-input";
import { readTurnHeaders, restCorrelation, TURN_HEADERS, type Correlation, type TurnHeaders } from "./turns";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface AuthSpec {
  /** Which API key the route takes; "none" for unauthenticated routes. */
  key: KeyRequirement | "none";
  /** Whether X-Agent is required (server-side routes). */
  agent: boolean;
  /** Whether the request must name a user (Bearer token or X-User-Id). */
  user: "required" | "optional" | "none";
  /** Only test-plane keys (sandbox routes). */
  testPlaneOnly?: boolean;
  /** The scope an OpenID Connect access token needs for this route (lib/profile/scopes.ts). */
  scope?: string;
}

export interface RouteMeta {
  method: HttpMethod;
  path: string;
  summary: string;
  responses: RouteResponses;
  /** The answer's error shape: the /v1 one, or another family's (the OAuth endpoints'). */
  errorFamily: "api" | "other";
  /** Every /v1 error code the route may answer (none listed for another family). */
  errorCodes: readonly ErrorCode[];
  /** Whether a per-IP or per-key limit applies before the handler. */
  rateLimited: boolean;
  auth: AuthSpec;
  cors: CorsPolicy;
  /** Whether the JSON answer carries livemode. */
  livemode: boolean;
  /** Whether the route takes the turn-correlation headers (X-Service-Conversation-Id, X-Service-Turn-Id). */
  turn: boolean;
  /** The form body a route reads itself (the OAuth endpoints), for the reference. */
  form?: z.ZodType;
  checksItself?: "oauth_client" | "access_token";
  /** The contract's schemas, for what reads the contract (the route fuzz suite). */
  body?: z.ZodType;
  query?: z.ZodType;
}

type Ctx<B, Q, A extends AuthSpec> = {
  req: Request;
  requestId: string;
  ip: string;
  params: Record<string, string>;
  body: B;
  query: Q;
  key: A["key"] extends "none" ? null : ResolvedKey;
  agent: A["agent"] extends true ? ResolvedAgent : null;
  user: A["user"] extends "required" ? ResolvedUser : ResolvedUser | null;
};

/** A handler's answer: a Response, or a JSON body with an optional status and headers. */
export type HandlerResult = Response | { status?: number; body: unknown; headers?: Record<string, string> };

/**
 * The answers a route gives when it succeeds, by status: the zod schema of each JSON body, or null
 * for an answer without one (a redirect, an empty 200). Errors are the family's own shape. The
 * OpenAPI document is built from these, and the integration tests check every answer against them.
 */
export type RouteResponses = Readonly<Record<number, z.ZodType | null>>;

export interface RouteDefinition<BS extends z.ZodType, QS extends z.ZodType, A extends AuthSpec> {
  method: HttpMethod;
  path: string;
  /** One line for the API reference: what the operation does. */
  summary: string;
  responses: RouteResponses;
  auth: A;
  body?: BS;
  query?: QS;
  /** The application/x-www-form-urlencoded body a route reads itself (the OAuth endpoints): described, not parsed here. */
  form?: z.ZodType;
  /** Credentials the handler checks itself, for the reference: an OAuth client (in the form or HTTP Basic), or an access token. */
  checksItself?: "oauth_client" | "access_token";
  /** Cap on the JSON body in bytes (default 1 MiB), or the cap for the request's key (bulk import's tiers). */
  bodyLimit?: number | ((key: ResolvedKey) => Promise<number>);
  /** Error code for a body that fails validation: invalid_request (400, default) or invalid_format (422). */
  invalidCode?: Extract<ErrorCode, "invalid_request" | "invalid_format">;
  /** The JSON answer carries `livemode`: whether the request's key is of the live plane (not the test plane). */
  livemode?: true;
  /**
   * The route is one a model's turn calls (the profile reads and writes): it takes the turn-correlation
   * headers, validates them (400 invalid_request naming the header), records them with the call in the
   * person's access log (lib/http/turns.ts) and echoes them on the answer.
   */
  turn?: true;
  /** Limits applied before the handler; keyed by client IP or by API key. */
  rateLimit?: { limiter: Limiter; by: "ip" | "key" };
  cors?: CorsPolicy;
  /**
   * How errors are answered: the /v1 shape { error: { code, message }, request_id } (default), or the
   * family's own (the OAuth endpoints hand in theirs, lib/oidc/errors.ts).
   */
  errorShape?: ErrorAnswer;
  /**
   * The /v1 error codes the route's own work may answer, beyond those its contract already implies
   * (credentials, validation, limits: contractErrors). The reference lists them; the tests refuse any other.
   */
  errors?: readonly ErrorCode[];
  handler: (ctx: Ctx<z.output<BS>, z.output<QS>, A>) => Promise<HandlerResult>;
}

export type RouteHandler = ((req: Request, ctx?: { params?: Promise<Record<string, string>> }) => Promise<Response>) & {
  meta: RouteMeta;
};

/** The /v1 error code of an error answer (read from a clone: the body still goes out). */
async function errorCodeOf(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === "string" ? body.error.code : `http_${response.status}`;
  } catch {
    return `http_${response.status}`;
  }
}

/** Field-level validation problems, named by their dotted path. */
function fieldErrors(error: z.ZodError) {
  return error.issues.map((i) => ({ field: i.path.join(".") || "(root)", message: i.message }));
}

function validate<S extends z.ZodType>(schema: S | undefined, input: unknown, code: ErrorCode, where: string) {
  if (!schema) return undefined;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    throw new ApiError(code, `Invalid ${where}: ${fields.map((f) => f.field).join(", ")}.`, { fields });
  }
  return parsed.data;
}

/** Text no contract may take (lib/http/text-input.ts), refused before the schema reads it, naming its field. */
function refuseUnsafeText(input: unknown, code: ErrorCode, where: string) {
  const field = unsafeTextField(input);
  if (field !== null) throw new ApiError(code, `Invalid ${where}: ${field}.`, { fields: [unsafeTextProblem(field)] });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(body, { status: init.status ?? 200, headers: { "Cache-Control": "no-store", ...init.headers } });
}

export function errorResponse(err: ApiError, requestId: string): Response {
  return json(errorBody(err, requestId), { status: err.status, headers: err.headers });
}

/** The answer to an error a handler threw, in one error family's shape; unknown errors are logged. */
export type ErrorAnswer = (err: unknown, requestId: string) => Response;

/** The /v1 shape: { error: { code, message, … }, request_id }; anything not an ApiError is a logged 500. */
export const apiErrorAnswer: ErrorAnswer = (err, requestId) => {
  if (err instanceof ApiError) return errorResponse(err, requestId);
  logger().error({ request_id: requestId, err }, "unhandled error");
  return errorResponse(new ApiError("internal_error", MESSAGES.internalError), requestId);
};

async function rateLimit(def: { limiter: Limiter; by: "ip" | "key" }, subject: string) {
  const res = await def.limiter.consume(`${def.by}:${subject}`);
  if (!res.allowed) {
    throw new ApiError("rate_limited", MESSAGES.rateLimited, { retry_after: res.retryAfter }, { "Retry-After": String(res.retryAfter) });
  }
}

/** The /v1 error codes a contract implies: its credentials, the validation of its inputs, its limit. */
export function contractErrors(def: Pick<RouteDefinition<z.ZodType, z.ZodType, AuthSpec>, "auth" | "body" | "query" | "invalidCode" | "rateLimit" | "turn">): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const { auth } = def;
  if (auth.key !== "none") codes.push("api_key_required", "invalid_api_key");
  if (auth.key === "secret") codes.push("secret_key_required");
  if (auth.testPlaneOnly) codes.push("sandbox_requires_test_key");
  if (auth.agent) codes.push("agent_required", "unknown_agent", "agent_inactive");
  if (auth.user !== "none") {
    // insufficient_scope: an access token without the route's scope, or on a route that takes none.
    codes.push("invalid_access_token", "unknown_user", "agent_not_approved", "insufficient_scope");
    if (auth.user === "required") codes.push("user_required");
  }
  if (def.query || def.turn) codes.push("invalid_request");
  if (def.body) codes.push(def.invalidCode ?? "invalid_request", "invalid_json", "payload_too_large", "unsupported_media_type");
  if (def.rateLimit) codes.push("rate_limited");
  return codes;
}

export function defineRoute<BS extends z.ZodType = z.ZodUndefined, QS extends z.ZodType = z.ZodUndefined, A extends AuthSpec = AuthSpec>(
  def: RouteDefinition<BS, QS, A>,
): RouteHandler {
  const cors = def.cors ?? "closed";
  const invalidCode = def.invalidCode ?? "invalid_request";

  const handler = async (req: Request, routeCtx?: { params?: Promise<Record<string, string>> }) => {
    const started = performance.now();
    const requestId = newRequestId();
    const ip = clientIp(req);
    let response: Response;
    let developerId: string | undefined;
    // A /v1 request whose key resolved goes into that developer's request log (lib/request-log).
    let logged: { at: Date; plane: ResolvedKey["plane"]; agentId: string | null } | undefined;
    // The /v1 error code of what the route threw, when it threw an ApiError.
    let thrownCode: string | undefined;
    // The person the request acted for, once resolved: the call goes into their access log.
    let onBehalf: { userId: string; agentId: string; agentName: string; plane: ResolvedKey["plane"] } | undefined;
    // The conversation and turn the request named (a turn route only), and what the access log records of them.
    let turn: TurnHeaders | null = null;
    let correlation: Correlation | undefined;
    try {
      const { auth } = def;
      // A per-IP limit counts every request, those with a wrong key too; a per-key one needs the key.
      if (def.rateLimit?.by === "ip") await rateLimit(def.rateLimit, ipLimitKey(ip));
      const key = auth.key === "none" ? null : await authenticateKey(req, auth.key);
      developerId = key?.developerId;
      if (key && def.path.startsWith("/v1/")) logged = { at: clockNow(), plane: key.plane, agentId: null };
      if (key && auth.testPlaneOnly) requireTestPlane(key);
      if (def.rateLimit?.by === "key" && key) await rateLimit(def.rateLimit, key.id);
      const agent = key && auth.agent ? await resolveAgent(req, key) : null;
      if (logged && agent) logged.agentId = agent.id;
      const user =
        key && agent && auth.user !== "none" ? await resolveUser(req, { key, agent, required: auth.user === "required", scope: auth.scope }) : null;
      if (user && agent && key) onBehalf = { userId: user.id, agentId: agent.id, agentName: agent.displayName, plane: key.plane };
      if (def.turn) {
        turn = readTurnHeaders(req);
        if (key && agent) correlation = restCorrelation({ developerId: key.developerId, plane: key.plane, agentId: agent.id }, turn);
      }

      const url = new URL(req.url);
      if (def.query) refuseUnsafeText(url.searchParams, "invalid_request", "query parameters");
      const query = validate(def.query, Object.fromEntries(url.searchParams), "invalid_request", "query parameters");
      const bodyLimit = typeof def.bodyLimit === "function" ? (key ? await def.bodyLimit(key) : undefined) : def.bodyLimit;
      const rawBody = def.body ? await readJsonBody(req, bodyLimit) : undefined;
      refuseUnsafeText(rawBody, invalidCode, "request body");
      const body = validate(def.body, rawBody ?? {}, invalidCode, "request body");
      const params = (await routeCtx?.params) ?? {};

      const result = await def.handler({ req, requestId, ip, params, body, query, key, agent, user } as Ctx<
        z.output<BS>,
        z.output<QS>,
        A
      >);
      if (result instanceof Response) response = result;
      else {
        const body = def.livemode && key && isPlainObject(result.body) ? { ...result.body, livemode: key.plane === "live" } : result.body;
        response = json(body, { status: result.status, headers: result.headers });
      }
    } catch (err) {
      if (err instanceof ApiError && !def.errorShape) thrownCode = err.code;
      response = (def.errorShape ?? apiErrorAnswer)(err, requestId);
    }
    response.headers.set("X-Request-Id", requestId);
    if (turn) {
      response.headers.set(TURN_HEADERS.conversation, turn.conversation);
      if (turn.turn !== undefined) response.headers.set(TURN_HEADERS.turn, turn.turn);
    }
    const errorCode = response.status >= 400 && (onBehalf || logged) ? (thrownCode ?? (await errorCodeOf(response))) : null;
    if (onBehalf) recordAccess({ ...onBehalf, ...correlation, surface: "rest", action: `${def.method} ${def.path}`, outcome: errorCode ?? "ok" });
    await applyCors(response, cors, req);
    const latency = performance.now() - started;
    if (logged && developerId) {
      recordRequest({ id: requestId, developerId, ...logged, method: def.method, route: def.path, status: response.status, errorCode, latencyMs: Math.round(latency) });
    }
    requestLogger().info(
      {
        request_id: requestId,
        method: req.method,
        route: def.path,
        status: response.status,
        latency_ms: Math.round(latency * 10) / 10,
        developer_id: developerId,
      },
      "request",
    );
    return response;
  };

  return Object.assign(handler, { meta: {
      method: def.method,
      path: def.path,
      summary: def.summary,
      responses: def.responses,
      errorFamily: def.errorShape ? ("other" as const) : ("api" as const),
      errorCodes: def.errorShape ? [] : [...new Set([...contractErrors(def), ...(def.errors ?? [])])].sort(),
      rateLimited: !!def.rateLimit,
      auth: def.auth,
      cors,
      livemode: def.livemode === true,
      turn: def.turn === true,
      form: def.form,
      checksItself: def.checksItself,
      body: def.body,
      query: def.query,
    },
  });
}
