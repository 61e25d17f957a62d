// ProfileClient: one method per profile route, the hosted sign-in calls, MCP sessions and tool calls.
import { ServiceError } from "./errors.js";
import { toolResult, type ToolCallAnswer } from "./mcp.js";
import { buildSignInUrl, type SignInUrlOptions } from "./sign-in.js";
import { Transport, type FetchLike, type RequestSpec, type RetryOptions } from "./transport.js";
import type * as t from "./types.js";

/** How a {@link ProfileClient} reaches the service and for which agent. */
export interface ClientOptions {
  /** A secret key (`sk_…`, or `sk_test_…` for the sandbox). Server side only. */
  apiKey?: string;
  /** The agent's handle, sent as X-Agent. */
  agent: string;
  /** The service's address (default `http://localhost:3000`). */
  baseUrl?: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: FetchLike;
  /** Time limit of each try in milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Retries of retryable errors (rate limits, 5xx, time-outs, network failures). */
  retry?: RetryOptions;
  /** Called before each wait between tries. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ServiceError }) => void;
  /** Hosted sign-in defaults: the agent's `sign_in_url` and your app's constant return destination. */
  signIn?: { url?: string; returnTo?: string; displayName?: string; publishableKey?: string };
  /** The tools this app calls; a call to any other is refused with ACCESS_DENIED before it is sent. */
  tools?: readonly string[];
}

/** Per-call options: a time limit and a signal. */
export interface CallOptions {
  /** This call's time limit per try in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Aborts the call; no retry follows an abort. */
  signal?: AbortSignal;
}

/**
 * The input of a profile call: the route's fields, the person it is about (`user`), the conversation
 * and turn it belongs to (`turn`, optional), and per-call options.
 */
export type WithUser<T> = T & { user: t.UserRef; turn?: t.TurnRef } & CallOptions;

function userHeaders(user: t.UserRef): Record<string, string> {
  return "token" in user && user.token ? { authorization: `Bearer ${user.token}` } : { "x-user-id": (user as { userId: string }).userId };
}

/** The person, and the turn-correlation headers when the call names a conversation. */
function profileHeaders(user: t.UserRef, turn: t.TurnRef | undefined): Record<string, string | undefined> {
  return { ...userHeaders(user), ...(turn ? { "x-service-conversation-id": turn.conversationId, "x-service-turn-id": turn.turnId } : {}) };
}

function call(spec: RequestSpec, options: CallOptions): RequestSpec {
  return { ...spec, timeoutMs: options.timeoutMs, signal: options.signal };
}

/**
 * One agent's client of the service: every profile route, the hosted sign-in calls, MCP sessions and
 * tool calls. Server side only: it holds a secret key. Every method throws a {@link ServiceError}.
 */
export class ProfileClient {
  /** The HTTP layer: the base address, headers, time limits and retries. */
  readonly transport: Transport;

  /** A client for `options.agent`, with `options.apiKey`, against `options.baseUrl`. */
  constructor(
    /** The options the client was made with. */
    readonly options: ClientOptions,
  ) {
    this.transport = new Transport({
      baseUrl: options.baseUrl ?? "http://localhost:3000",
      apiKey: options.apiKey,
      agent: options.agent,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      onRetry: options.onRetry,
    });
  }

  // Profile routes: one method each.

  /** GET /v1/profile: the composed profile (`sections: "identity,preferences,summary"` for prompts), or one box. */
  read({ user, turn, timeoutMs, signal, ...query }: WithUser<t.ReadQuery>): Promise<t.Profile> {
    return this.transport.request(call({ method: "GET", path: "/v1/profile", query, headers: profileHeaders(user, turn) }, { timeoutMs, signal }));
  }

  /** GET /v1/profile/search: memories matching a query, source, box or date range. */
  search({ user, turn, timeoutMs, signal, ...query }: WithUser<t.SearchQuery>): Promise<t.SearchResult> {
    return this.transport.request(call({ method: "GET", path: "/v1/profile/search", query, headers: profileHeaders(user, turn) }, { timeoutMs, signal }));
  }

  /** POST /v1/profile/remember: saves one durable fact. */
  remember({ user, turn, timeoutMs, signal, ...body }: WithUser<t.RememberInput>): Promise<t.RememberResult> {
    return this.transport.request(call({ method: "POST", path: "/v1/profile/remember", body, headers: profileHeaders(user, turn) }, { timeoutMs, signal }));
  }

  /** POST /v1/profile/forget: deletes by `id`, or previews by `match`, `import_id` or `scope` until sent again with `confirm: true`. */
  forget({ user, turn, timeoutMs, signal, ...body }: WithUser<t.ForgetInput>): Promise<t.ForgetResult> {
    return this.transport.request(call({ method: "POST", path: "/v1/profile/forget", body, headers: profileHeaders(user, turn) }, { timeoutMs, signal }));
  }

  /** POST /v1/profile/import: distils a chunk of text into memories. */
  import({ user, turn, timeoutMs, signal, ...body }: WithUser<t.ImportInput>): Promise<t.ImportResult> {
    return this.transport.request(call({ method: "POST", path: "/v1/profile/import", body, headers: profileHeaders(user, turn) }, { timeoutMs, signal }));
  }

  /** POST /v1/profile/commit: the turn's messages (and explicit memories); clears the read obligation. `sync: true` waits for the result. */
  commit({ user, turn, timeoutMs, signal, ...body }: WithUser<t.CommitInput>): Promise<t.CommitResult> {
    return this.transport.request(call({ method: "POST", path: "/v1/profile/commit", body, headers: profileHeaders(user, turn) }, { timeoutMs, signal }));
  }

  /**
   * POST /v1/profile/mcp-session: a 15-minute MCP session for one conversation and one user, never
   * stored nor given to a browser. Pass the last token as `previousToken` to keep its correlation.
   */
  mcpSession({ userId, previousToken, timeoutMs, signal }: { userId: string; previousToken?: string } & CallOptions): Promise<t.McpSession> {
    const body = previousToken ? { previous_token: previousToken } : {};
    return this.transport.request(call({ method: "POST", path: "/v1/profile/mcp-session", body, headers: { "x-user-id": userId } }, { timeoutMs, signal }));
  }

  /**
   * Calls a tool of the developer MCP server ({baseUrl}/mcp) for a user (X-User-Id, an agent token or
   * an MCP session token) and resolves to its result. A refusal or a failed tool is a ServiceError:
   * TOOL_NOT_CONNECTED, TOOL_ERROR, COMMIT_REQUIRED, ACCESS_DENIED (a tool outside `tools`), …
   */
  async callTool({ name, arguments: args = {}, user, timeoutMs, signal }: { name: string; arguments?: Record<string, unknown>; user: t.UserRef } & CallOptions): Promise<unknown> {
    if (this.options.tools && !this.options.tools.includes(name)) {
      throw new ServiceError({
        code: "ACCESS_DENIED",
        type: "client",
        message: `${name} is not one of the tools this client declared (${this.options.tools.join(", ")}).`,
        baseUrl: this.transport.baseUrl,
      });
    }
    const answer = await this.transport.request<ToolCallAnswer>(
      call(
        {
          method: "POST",
          path: "/mcp",
          body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
          headers: { ...userHeaders(user), accept: "application/json, text/event-stream" },
        },
        { timeoutMs, signal },
      ),
    );
    return toolResult(name, answer, this.transport.baseUrl);
  }

  // Hosted sign-in.

  /** A hosted sign-in link for this agent; `signIn.url`, `signIn.returnTo`, `signIn.displayName` and `signIn.publishableKey` are its defaults. */
  signInUrl(options: Partial<SignInUrlOptions> = {}): string {
    const defaults = this.options.signIn ?? {};
    const signInUrl = options.signInUrl ?? defaults.url ?? `${this.transport.baseUrl}/sign-in/${encodeURIComponent(this.options.agent)}`;
    return buildSignInUrl({
      ...options,
      signInUrl,
      returnTo: options.returnTo ?? defaults.returnTo,
      displayName: options.displayName ?? defaults.displayName,
      publishableKey: options.publishableKey ?? defaults.publishableKey,
    });
  }

  /**
   * POST /v1/auth/sign-in/exchange: the code from the return destination for `{ token, userId }`.
   * A replayed URL (a reload or the Back button) brings back a used code: when the caller still holds
   * a valid token (`currentToken`, checked with validate), that is already a sign-in and its token is
   * returned with `replayed: true`; otherwise the error is thrown.
   */
  async exchangeCode({
    code,
    currentToken,
    timeoutMs,
    signal,
  }: { code: string; currentToken?: string | null } & CallOptions): Promise<{ token: string; userId: string; replayed: boolean }> {
    try {
      const answer = await this.transport.request<t.ExchangeAnswer>(call({ method: "POST", path: "/v1/auth/sign-in/exchange", body: { code } }, { timeoutMs, signal }));
      return { token: answer.token, userId: answer.userId, replayed: false };
    } catch (err) {
      if (!(err instanceof ServiceError) || err.type !== "code_already_used" || !currentToken) throw err;
      const held = await this.validate({ token: currentToken, timeoutMs, signal });
      if (!held.valid || !held.userId) throw err;
      return { token: currentToken, userId: held.userId, replayed: true };
    }
  }

  /** POST /v1/auth/sign-in/validate: whether an agent token is still good for this key's developer, this agent and plane, and an approving user. */
  validate({ token, timeoutMs, signal }: { token: string } & CallOptions): Promise<t.Validation> {
    return this.transport.request(call({ method: "POST", path: "/v1/auth/sign-in/validate", body: { token } }, { timeoutMs, signal }));
  }

  /** POST /v1/auth/sign-in/return-destinations: allowlists a return destination (idempotent: call it at every start). Defaults to `signIn.returnTo`. */
  registerReturnDestination({ returnTo, ...options }: { returnTo?: string } & CallOptions = {}): Promise<t.ReturnDestinationRegistration> {
    const target = returnTo ?? this.options.signIn?.returnTo;
    if (!target) throw new ServiceError({ code: "INVALID_INPUT", type: "client", message: "returnTo is required (or set signIn.returnTo).", baseUrl: this.transport.baseUrl });
    return this.transport.request(call({ method: "POST", path: "/v1/auth/sign-in/return-destinations", body: { return_to: target } }, options));
  }

  /** GET /v1/auth/sign-in/return-destinations. */
  listReturnDestinations(options: CallOptions = {}): Promise<t.ReturnDestinationList> {
    return this.transport.request(call({ method: "GET", path: "/v1/auth/sign-in/return-destinations" }, options));
  }

  /** DELETE /v1/auth/sign-in/return-destinations: links naming it stop working at once. */
  removeReturnDestination({ returnTo, ...options }: { returnTo: string } & CallOptions): Promise<t.ReturnDestinationRemoval> {
    return this.transport.request(call({ method: "DELETE", path: "/v1/auth/sign-in/return-destinations", body: { return_to: returnTo } }, options));
  }

  /** POST /v1/auth/sign-in/message-lines: registers a provider-owned number the agent texts from (idempotent). */
  registerMessageLine({ timeoutMs, signal, ...body }: t.MessageLineInput & CallOptions): Promise<t.MessageLineRegistration> {
    return this.transport.request(call({ method: "POST", path: "/v1/auth/sign-in/message-lines", body }, { timeoutMs, signal }));
  }

  /** GET /v1/auth/sign-in/message-lines: the agent's active lines, without their numbers. */
  listMessageLines(options: CallOptions = {}): Promise<t.MessageLineList> {
    return this.transport.request(call({ method: "GET", path: "/v1/auth/sign-in/message-lines" }, options));
  }

  /** DELETE /v1/auth/sign-in/message-lines: revokes the line with that number (on one channel, or all). */
  revokeMessageLine({ timeoutMs, signal, ...body }: t.MessageLineRevokeInput & CallOptions): Promise<t.MessageLineRevocation> {
    return this.transport.request(call({ method: "DELETE", path: "/v1/auth/sign-in/message-lines", body }, { timeoutMs, signal }));
  }

  /**
   * POST /v1/auth/sign-in/message-url: a text-back sign-in (or reconnect) link for a message thread,
   * or with `reason: "permission_review"` the connect link asking the person (`subject.externalId`)
   * for a `capability` or one app in `connectors`. Call it from a trusted server only, never from a
   * browser or a model prompt. `required` is not taken and is dropped.
   */
  createMessageSignInUrl(input: t.MessageSignInInput & { required?: unknown } & CallOptions): Promise<t.MessageSignInUrl> {
    const { timeoutMs, signal, required: _required, ...body } = input;
    return this.transport.request(call({ method: "POST", path: "/v1/auth/sign-in/message-url", body }, { timeoutMs, signal }));
  }

  /** POST /v1/auth/sign-in/recognize-phone: whether a message's sender ids name one person; a token only when they already approved the agent. */
  recognizePhone({ candidates, timeoutMs, signal }: { candidates: string[] } & CallOptions): Promise<t.Recognition> {
    return this.transport.request(call({ method: "POST", path: "/v1/auth/sign-in/recognize-phone", body: { candidates } }, { timeoutMs, signal }));
  }
}
