// The OpenAPI 3.1 document of the JSON API, built from the route contracts themselves (defineRoute):
// their paths, methods, credentials, query and body schemas, and the answers they declare. Nothing
// here is written by hand per route, so the reference cannot drift from what the routes accept.
import { z } from "zod";
import type { RouteMeta } from "./define-route";
import { ERROR_STATUS } from "./errors";
import { TURN_HEADERS, TURN_ID_MAX_CHARS, TURN_ID_PATTERN } from "./turns";

type JsonSchema = Record<string, unknown>;

/** The parts of a JSON Schema the reference reads. */
export type OpenApiSchema = {
  type?: string | string[];
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  description?: string;
  pattern?: string;
  [keyword: string]: unknown;
};
export type OpenApiParameter = { name: string; in: string; required: boolean; description?: string; schema: OpenApiSchema };
export type OpenApiOperation = {
  summary: string;
  operationId: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: OpenApiSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: OpenApiSchema }> }>;
  security: Array<Record<string, unknown>>;
};
/** The document as the reference page reads it. */
export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, OpenApiOperation>> } & JsonSchema;

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema, as a request (`input`) or an answer (`output`) reads. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): OpenApiSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The /v1 error answer (lib/http/errors.ts errorBody). */
const API_ERROR: OpenApiSchema = {
  type: "object",
  required: ["error", "request_id"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" } },
      additionalProperties: true,
    },
    request_id: { type: "string", pattern: "^req_" },
  },
};

/** The OAuth endpoints' error answer (RFC 6749 § 5.2). */
const OAUTH_ERROR: OpenApiSchema = {
  type: "object",
  required: ["error", "error_description"],
  properties: { error: { type: "string" }, error_description: { type: "string" } },
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No content",
  303: "Redirect",
  400: "The request is not valid",
  401: "Missing or wrong credentials",
  403: "Not allowed",
  404: "Not found",
  413: "The body is too large",
  415: "The body is not JSON",
  422: "The body is not in the expected format",
  402: "Quota exceeded",
  409: "Conflict with the current state",
  428: "A commit is due first",
  429: "Too many requests",
  503: "Unavailable",
};

/**
 * The error answers a route can give, status by status, with the codes behind each: for the /v1 family
 * from the codes its contract lists; for the OAuth endpoints, RFC 6749's (400; 401 for a client or
 * token they check; 429 over their limit).
 */
function errorStatuses(meta: RouteMeta): Map<number, string[]> {
  const statuses = new Map<number, string[]>();
  if (meta.errorFamily === "api") {
    for (const code of meta.errorCodes) statuses.set(ERROR_STATUS[code], [...(statuses.get(ERROR_STATUS[code]) ?? []), code]);
  } else {
    statuses.set(400, []);
    if (meta.checksItself) statuses.set(401, []);
    if (meta.rateLimited) statuses.set(429, []);
  }
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

/** `/v1/profile/commit/[commitId]` → `/v1/profile/commit/{commitId}`. */
export function openApiPath(path: string): string {
  return path.replace(/\[([^\]]+)\]/g, "{$1}");
}

function tagOf(path: string): string {
  if (path.startsWith("/oauth") || path.startsWith("/.well-known")) return "OpenID Connect";
  if (path.startsWith("/personal-mcp")) return "Connect links";
  const segment = path.split("/")[2] ?? "service";
  return { profile: "Profile", sso: "SSO clients", sandbox: "Sandbox", agents: "Agents" }[segment] ?? "Service";
}

function operation(meta: RouteMeta): OpenApiOperation {
  const parameters: OpenApiParameter[] = [];
  for (const name of [...meta.path.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!)) {
    parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
  }
  if (meta.query) {
    const query = schemaOf(meta.query, "input");
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: "query", required: (query.required ?? []).includes(name), schema });
    }
  }
  if (meta.auth.agent) parameters.push({ name: "X-Agent", in: "header", required: true, description: "The agent's handle.", schema: { type: "string" } });
  if (meta.auth.user === "required" || meta.auth.user === "optional") {
    parameters.push({
      name: "X-User-Id",
      in: "header",
      required: false,
      description: "The developer's own id for the user (instead of an Authorization: Bearer agent token or access token).",
      schema: { type: "string" },
    });
  }
  if (meta.turn) {
    const id = { type: "string", minLength: 1, maxLength: TURN_ID_MAX_CHARS, pattern: TURN_ID_PATTERN.source };
    parameters.push(
      {
        name: TURN_HEADERS.conversation,
        in: "header",
        required: false,
        description:
          "The conversation this call is part of (your own id for it): recorded with the call in the person's access log, scoped to your account, plane and agent, and echoed on the answer.",
        schema: id,
      },
      {
        name: TURN_HEADERS.turn,
        in: "header",
        required: false,
        description: `The turn within the conversation (your own id for it; only with ${TURN_HEADERS.conversation}): recorded and echoed likewise.`,
        schema: id,
      },
    );
  }

  const errorSchema = meta.errorFamily === "api" ? API_ERROR : OAUTH_ERROR;
  const responses: OpenApiOperation["responses"] = {};
  for (const [status, schema] of Object.entries(meta.responses)) {
    responses[status] = schema
      ? { description: STATUS_TEXT[Number(status)] ?? "Answer", content: { "application/json": { schema: schemaOf(schema, "output") } } }
      : { description: STATUS_TEXT[Number(status)] ?? "Answer" };
  }
  for (const [status, codes] of errorStatuses(meta)) {
    const description = `${STATUS_TEXT[status] ?? "Error"}${codes.length ? `: ${codes.join(", ")}` : ""}`;
    responses[String(status)] ??= { description, content: { "application/json": { schema: errorSchema } } };
  }

  const op: OpenApiOperation = {
    summary: meta.summary,
    operationId: `${meta.method.toLowerCase()}${openApiPath(meta.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    tags: [tagOf(meta.path)],
    responses,
    security: [],
  };
  if (parameters.length) op.parameters = parameters;
  if (meta.body) op.requestBody = { required: true, content: { "application/json": { schema: schemaOf(meta.body, "input") } } };
  if (meta.form) op.requestBody = { required: true, content: { "application/x-www-form-urlencoded": { schema: schemaOf(meta.form, "input") } } };
  // The key always; a route about a user also takes the user as a bearer token, or else by X-User-Id; a
  // token-authoritative route (the connector tools) the bearer token only.
  // The OAuth endpoints check their own: a client (HTTP Basic, or client_id and its secret in the form;
  // a public client sends its client_id alone), or an access token.
  if (meta.checksItself === "oauth_client") op.security = [{ clientBasic: [] }, {}];
  else if (meta.checksItself === "access_token") op.security = [{ bearer: [] }];
  else if (meta.auth.key === "none") op.security = [];
  else if (meta.auth.user === "none") op.security = [{ apiKey: [] }];
  else op.security = meta.auth.user === "token" ? [{ apiKey: [], bearer: [] }] : [{ apiKey: [], bearer: [] }, { apiKey: [] }];
  return op;
}

/** The document for the given routes (every defineRoute handler the service serves). */
export function openApiDocument(routes: readonly RouteMeta[], info: { baseUrl: string; version: string }): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const meta of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    (paths[openApiPath(meta.path)] ??= {})[meta.method.toLowerCase()] = operation(meta);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Profile Service API",
      version: info.version,
      description: "The personalization profile and sign-in service: the REST API under /v1, OpenID Connect under /oauth and /.well-known.",
    },
    servers: [{ url: info.baseUrl }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "A secret key (sk_…, sk_test_…) or, where a route says so, a publishable key (pk_…, pk_test_…)." },
        bearer: { type: "http", scheme: "bearer", description: "An agent token, or an OpenID Connect access token (mcp_at_…) carrying the route's scope." },
        clientBasic: { type: "http", scheme: "basic", description: "An OAuth client's id and secret (client_secret_basic)." },
      },
    },
  };
}

/** The contracts of the defineRoute handlers the given route modules export. */
export function contractsOf(modules: readonly Record<string, unknown>[]): RouteMeta[] {
  return modules.flatMap((mod) => Object.values(mod).flatMap((handler) => (typeof handler === "function" && "meta" in handler ? [(handler as { meta: RouteMeta }).meta] : [])));
}
