// The route contract: one per operation — its auth, its zod schemas, its limits, its handler — and what
// reads a contract (the reference, the tests). The request path that serves a contract is a list of
// named steps (./route-pipeline.ts); lib/api-edge/define-route.ts composes `defineRoute` from them.
import type { z } from "zod";
import { databaseUnavailable, logDatabaseUnavailable } from "../platform/db/unavailable";
import { logger } from "../platform/log";
import type { Limiter } from "../platform/ratelimit";
import type { Answer, ApiRequest } from "./api-request";
import type { CallerKey, KeyRequirement, ResolvedAgent, ResolvedUser } from "./caller";
import type { CorsPolicy } from "./cors";
import { ApiError, errorBody, MESSAGES, serviceUnavailable, type ErrorCode } from "./errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface AuthSpec {
  /** Which API key the route takes; "none" for unauthenticated routes. */
  key: KeyRequirement | "none";
  /** Whether X-Agent is required (server-side routes). */
  agent: boolean;
  /**
   * Whether and how the request names a person:
   * - "required" / "optional": a Bearer token (agent token, or an access token carrying the route's
   *   scope) or X-User-Id, of a person who approved the agent; the call goes into their access log;
   * - "token": a Bearer token only (an agent token, or an access token of this developer's client,
   *   any scope); X-User-Id is refused. What the person approved and granted is the handler's to
   *   check on every call, and it records the call itself (the connector tools);
   * - "none": no person.
   */
  user: "required" | "optional" | "token" | "none";
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

export type RouteContext<B, Q, A extends AuthSpec> = {
  /** The request as a web Request, made on first use: a handler that passes it on. */
  req: Request;
  /** The request as the steps read it (headers, URL, body text), with no web Request made. */
  request: ApiRequest;
  requestId: string;
  ip: string;
  params: Record<string, string>;
  body: B;
  query: Q;
  key: A["key"] extends "none" ? null : CallerKey;
  agent: A["agent"] extends true ? ResolvedAgent : null;
  user: A["user"] extends "required" | "token" ? ResolvedUser : ResolvedUser | null;
};

/**
 * A handler's answer: a Response, or a JSON body with an optional status and headers (no body: an
 * empty answer). `corsClient` names the OAuth client the request authenticated as, for a CORS policy
 * that admits that client's origins only (the token and revocation endpoints, lib/oidc/cors.ts).
 */
export type HandlerResult = Response | { status?: number; body?: unknown; headers?: Record<string, string>; corsClient?: string };

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
  bodyLimit?: number | ((key: CallerKey) => Promise<number>);
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
  handler: (ctx: RouteContext<z.output<BS>, z.output<QS>, A>) => Promise<HandlerResult>;
}

/** A contract without its handler: what the steps and the reference read. */
export type RouteContract = Omit<RouteDefinition<z.ZodType, z.ZodType, AuthSpec>, "handler">;

export type RouteHandler = ((req: Request, ctx?: { params?: Promise<Record<string, string>> }) => Promise<Response>) & {
  meta: RouteMeta;
  /** The same route served from an ApiRequest, its answer not made a web Response (the API fast path). */
  serve: (req: ApiRequest, params: Record<string, string>) => Promise<Answer>;
};

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(body, { status: init.status ?? 200, headers: { "Cache-Control": "no-store", ...init.headers } });
}

export function errorResponse(err: ApiError, requestId: string): Response {
  return json(errorBody(err, requestId), { status: err.status, headers: err.headers });
}

/** The answer to an error a handler threw, in one error family's shape; unknown errors are logged. */
export type ErrorAnswer = (err: unknown, requestId: string) => Response;

/**
 * The /v1 shape: { error: { code, message, … }, request_id }. A database that cannot be reached is a
 * 503 with Retry-After (lib/platform/db/unavailable.ts); anything else not an ApiError is a logged 500.
 */
export const apiErrorAnswer: ErrorAnswer = (err, requestId) => {
  if (err instanceof ApiError) return errorResponse(err, requestId);
  if (databaseUnavailable(err)) {
    logDatabaseUnavailable(err, { request_id: requestId });
    return errorResponse(serviceUnavailable(), requestId);
  }
  logger().error({ request_id: requestId, err }, "unhandled error");
  return errorResponse(new ApiError("internal_error", MESSAGES.internalError), requestId);
};

/** The /v1 error codes a contract implies: its credentials, the validation of its inputs, its limit. */
export function contractErrors(def: Pick<RouteContract, "auth" | "body" | "query" | "invalidCode" | "rateLimit" | "turn">): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const { auth } = def;
  if (auth.key !== "none") codes.push("api_key_required", "invalid_api_key");
  if (auth.key === "secret") codes.push("secret_key_required");
  if (auth.testPlaneOnly) codes.push("sandbox_requires_test_key");
  if (auth.agent) codes.push("agent_required", "unknown_agent", "agent_inactive");
  if (auth.user === "token") codes.push("user_token_required", "invalid_access_token");
  else if (auth.user !== "none") {
    // insufficient_scope: an access token without the route's scope, or on a route that takes none.
    codes.push("invalid_access_token", "unknown_user", "agent_not_approved", "insufficient_scope");
    if (auth.user === "required") codes.push("user_required");
  }
  if (def.query || def.turn) codes.push("invalid_request");
  if (def.body) codes.push(def.invalidCode ?? "invalid_request", "invalid_json", "payload_too_large", "unsupported_media_type");
  if (def.rateLimit) codes.push("rate_limited");
  return codes;
}

/** What a contract tells its readers (the reference, the tests): everything but the handler. */
export function routeMeta(def: RouteContract): RouteMeta {
  return {
    method: def.method,
    path: def.path,
    summary: def.summary,
    responses: def.responses,
    errorFamily: def.errorShape ? "other" : "api",
    errorCodes: def.errorShape ? [] : [...new Set([...contractErrors(def), ...(def.errors ?? [])])].sort(),
    rateLimited: !!def.rateLimit,
    auth: def.auth,
    cors: def.cors ?? "closed",
    livemode: def.livemode === true,
    turn: def.turn === true,
    form: def.form,
    checksItself: def.checksItself,
    body: def.body,
    query: def.query,
  };
}
