// Runs a connector tool for the person a Bearer token names, on MCP and REST alike. Every call is
// checked live: the agent's approval, the person's grant of the app to this agent (a read tool needs
// `<app>:read`, an action its capability; permission_needed carries a freshly minted link), the app's
// connection (fail closed: the agent mints a link with service_connect), then the provider's own
// answer (a refused token is refreshed once; a refused grant means reconnecting; a missing scope is a
// permission failure with a link; a rate limit passes its wait on).
// Actions are idempotent by key. Each call is written to the person's access log.
import { createHash } from "node:crypto";
import { recordAccess, type AccessSurface } from "../../access-log/access-log";
import { APP_NAMES, type App } from "../../catalogue";
import { now as clockNow } from "../../platform/clock";
import { mintConnectLink } from "../../connect-links/links";
import { database, db } from "../../platform/db";
import { Prisma } from "../../platform/db/generated/client";
import type { Plane } from "../../platform/db/generated/enums";
import { ApiError, MESSAGES } from "../../http/errors";
import { logger } from "../../platform/log";
import { isApproved } from "../../users/approvals";
import { ProviderFailure, ProviderRateLimited, ProviderScopeError } from "../apis/http";
import { AppConnectionError } from "../errors";
import { capabilityApp, readCapability } from "../../app-grants/grants";
import { usableConnection, type ConnectionRow } from "../usable";
import type { ConnectorRunContext, ConnectorToolDefinition } from "./definition";

/** How long an action's idempotency key is remembered. */
export const ACTION_KEY_TTL_HOURS = 24;

export interface ConnectorCall {
  tool: ConnectorToolDefinition;
  developerId: string;
  plane: Plane;
  agent: { id: string; handle: string; displayName: string };
  /** The person the Bearer token names (resolved and bound to this developer, agent and plane). */
  userId: string;
  surface: AccessSurface;
  /** The arguments as sent: a `user_id` among them is refused. */
  rawArgs: unknown;
  signal?: AbortSignal;
}

function appName(app: string): string {
  return APP_NAMES[app as App] ?? app;
}

export function appNotConnected(app: string): ApiError {
  return new ApiError("app_not_connected", `The user has not connected ${appName(app)}. Call service_connect with app "${app}" and show the user its connect_url, then retry.`, {
    app,
  });
}

export function appNeedsReconnect(app: string): ApiError {
  return new ApiError(
    "app_needs_reconnect",
    `${appName(app)} no longer accepts this connection (the grant was revoked or expired). Call service_connect with app "${app}" so the user can connect it again, then retry.`,
    { app },
  );
}

/** permission_needed, with a link that asks the person for the capability (minted now, or the same one while valid). */
async function permissionNeeded(call: ConnectorCall, input: { app: string; capability: string }): Promise<ApiError> {
  const link = await mintConnectLink({
    developerId: call.developerId,
    plane: call.plane,
    agent: call.agent,
    userId: call.userId,
    externalId: null,
    app: input.app,
    capability: input.capability,
  });
  return new ApiError("permission_needed", `The user has not allowed ${input.capability} for this agent. Show the user connect_url to allow it, then retry.`, {
    capability: input.capability,
    connect_url: link.connect_url,
    expires_at: link.expires_at,
    instructions: link.instructions,
  });
}

/**
 * The tool's view of the person's connections: only the apps `visible` admits (those the person gave
 * this agent) exist for it; any other reads as not connected, whether or not the person connected it
 * for someone else.
 */
function context(call: ConnectorCall, read: CallRead, visible: (app: string) => boolean): ConnectorRunContext {
  const find = (apps: readonly App[]) => read.connections.filter((c) => apps.includes(c.app as App) && visible(c.app));
  return {
    userId: call.userId,
    agent: call.agent,
    developerId: call.developerId,
    plane: call.plane,
    signal: call.signal,
    async connection(app) {
      const [row] = find([app]);
      if (!row) throw appNotConnected(app);
      if (row.status !== "active") throw appNeedsReconnect(app);
      return usableConnection(row, call.signal);
    },
    async connections(apps) {
      const rows = find(apps);
      const active = apps.flatMap((app) => rows.filter((r) => r.app === app && r.status === "active"));
      if (active.length) return active.map((r) => usableConnection(r, call.signal));
      const first = apps.find((app) => rows.some((r) => r.app === app)) ?? apps[0]!;
      throw rows.length ? appNeedsReconnect(first) : appNotConnected(first);
    },
  };
}

/** One of the person's connections as a call reads it: its sealed token comes with it (usableConnection). */
interface CallConnection extends ConnectionRow {
  status: string;
}

/** What a call reads before its work: the capabilities the person gave the agent, and the person's connections. */
interface CallRead {
  grants: ReadonlySet<string>;
  connections: readonly CallConnection[];
}

/**
 * The grants and the connections (with their sealed tokens) in one prepared statement, as every call
 * needs them: a person has a connection per app at most, a handful in all.
 */
const CALL_READ = `SELECT
    ARRAY(SELECT g.capability FROM capability_grants g WHERE g.user_id = $1 AND g.agent_id = $2) AS grants,
    COALESCE((SELECT json_agg(json_build_object(
        'id', c.id, 'app', c.app, 'provider', c.provider, 'accountEmail', c.account_email, 'scopes', c.scopes,
        'status', c.status, 'sealed', c.access_token_sealed,
        'expiresAt', (extract(epoch FROM c.access_token_expires_at) * 1000)::float8))
      FROM app_connections c WHERE c.user_id = $1), '[]'::json) AS connections`;

interface CallReadRow extends Record<string, unknown> {
  grants: string[];
  connections: Array<{ id: string; app: string; provider: string; accountEmail: string | null; scopes: string[]; status: string; sealed: string; expiresAt: number | null }>;
}

async function readCall(call: ConnectorCall): Promise<CallRead> {
  const [row] = await (await database()).sql.query<CallReadRow>(CALL_READ, [call.userId, call.agent.id], { name: "connector_call" });
  return {
    grants: new Set(row?.grants ?? []),
    connections: (row?.connections ?? []).map(({ sealed, expiresAt, ...c }) => ({ ...c, token: { accessTokenSealed: sealed, accessTokenExpiresAt: expiresAt } })),
  };
}

/** The arguments, checked: `user_id` is refused (token-authoritative), then the tool's schema. */
export function parseConnectorArgs(tool: ConnectorToolDefinition, raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === "object" && "user_id" in raw) throw new ApiError("user_token_required", MESSAGES.userTokenRequired);
  const parsed = tool.input.safeParse(raw ?? {});
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "(root)", message: i.message }));
    throw new ApiError("invalid_request", `Invalid arguments for ${tool.name}.`, { fields });
  }
  return parsed.data;
}

function requestHash(args: Record<string, unknown>): string {
  const { idempotency_key: _key, ...rest } = args;
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex");
}

/** Runs an action once per idempotency key: the same key again answers the stored result. */
async function once(call: ConnectorCall, args: Record<string, unknown>, act: () => Promise<object>): Promise<object> {
  const prisma = await db();
  const id = { userId: call.userId, agentId: call.agent.id, tool: call.tool.name, idempotencyKey: String(args.idempotency_key) };
  const hash = requestHash(args);
  const cutoff = new Date(clockNow().getTime() - ACTION_KEY_TTL_HOURS * 3_600_000);
  await prisma.connectorAction.deleteMany({ where: { ...id, createdAt: { lt: cutoff } } });
  try {
    await prisma.connectorAction.create({ data: { ...id, requestHash: hash, state: "pending", createdAt: clockNow() } });
  } catch (err) {
    if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")) throw err;
    const first = await prisma.connectorAction.findUnique({ where: { userId_agentId_tool_idempotencyKey: id } });
    if (!first) return once(call, args, act);
    if (first.requestHash !== hash)
      throw new ApiError("idempotency_key_reused", `This idempotency_key was used for another ${call.tool.name} call; use a new key for a new action.`);
    if (first.state === "done") return first.result as object;
    if (first.state === "pending") throw new ApiError("action_in_progress", `A ${call.tool.name} call with this idempotency_key is still running; wait for its answer.`);
    throw new ApiError(
      "provider_error",
      `The first ${call.tool.name} call with this idempotency_key may have been carried out, but its answer was lost. Check before acting again with a new key.`,
      { app: call.tool.apps[0] },
    );
  }
  try {
    const result = await act();
    await prisma.connectorAction.update({ where: { userId_agentId_tool_idempotencyKey: id }, data: { state: "done", result } });
    return result;
  } catch (err) {
    if (err instanceof ProviderFailure && err.ambiguous) {
      await prisma.connectorAction.update({ where: { userId_agentId_tool_idempotencyKey: id }, data: { state: "unknown" } });
    } else {
      // Nothing was done: the same key may try again.
      await prisma.connectorAction.delete({ where: { userId_agentId_tool_idempotencyKey: id } });
    }
    throw err;
  }
}

/**
 * The capability an action needs for these arguments. Its choice of app (which mailbox sends) sees
 * only the apps this agent holds: when the app it would use is one the agent holds nothing on, the
 * person is asked for the action on it (permission_needed), never told whether it is connected.
 */
async function actionCapability(
  call: ConnectorCall,
  action: NonNullable<ConnectorToolDefinition["action"]>,
  args: Record<string, unknown>,
  ctx: ConnectorRunContext,
  holds: (app: string) => boolean,
): Promise<string> {
  try {
    return await action.capability(args, ctx);
  } catch (err) {
    const named = err instanceof ApiError && err.code === "app_not_connected" ? err.extras.app : undefined;
    const app = typeof named === "string" ? named : "";
    if (!app || holds(app)) throw err;
    const capability = `${app}:${action.permission}`;
    throw await permissionNeeded(call, { app, capability });
  }
}

/** The service's error for a failure of the tool's work. */
async function asApiError(call: ConnectorCall, err: unknown, capability: string | undefined): Promise<unknown> {
  const app = (err as { app?: string }).app ?? call.tool.apps[0]!;
  if (err instanceof AppConnectionError && err.reason === "needs_reconnect") return appNeedsReconnect(app);
  if (err instanceof ProviderScopeError) return permissionNeeded(call, { app, capability: capability ?? `${app}:read` });
  if (err instanceof ProviderRateLimited) {
    return new ApiError(
      "rate_limited",
      `${appName(app)} is rate limiting these calls; retry after ${err.retryAfter} seconds.`,
      { retry_after: err.retryAfter, app },
      { "Retry-After": String(err.retryAfter) },
    );
  }
  if (err instanceof ProviderFailure) {
    logger().warn({ tool: call.tool.name, app, status: err.status, err: err.message }, "connector provider failed");
    return new ApiError("provider_error", `${appName(app)} failed to answer this call (${err.status ? `HTTP ${err.status}` : "no answer"}); try again later.`, { app });
  }
  return err;
}

/**
 * One call of a connector tool. Throws ApiError (agent_not_approved, app_not_connected,
 * app_needs_reconnect, permission_needed, rate_limited, provider_error, invalid_request, …).
 */
export async function runConnectorTool(call: ConnectorCall): Promise<object> {
  let outcome = "ok";
  try {
    const args = parseConnectorArgs(call.tool, call.rawArgs);
    if (!(await isApproved({ userId: call.userId, agentId: call.agent.id }))) throw new ApiError("agent_not_approved", MESSAGES.agentNotApproved);
    const read = await readCall(call);
    const grants = read.grants;
    // A read needs the app's read grant; an action sees the apps it holds any grant on, then needs its own capability.
    const reads = (app: string) => grants.has(readCapability(app));
    const holds = (app: string) => [...grants].some((g) => capabilityApp(g) === app);
    let capability: string | undefined;
    let ctx: ConnectorRunContext;
    if (call.tool.action) {
      ctx = context(call, read, holds);
      capability = await actionCapability(call, call.tool.action, args, ctx, holds);
      if (!grants.has(capability)) throw await permissionNeeded(call, { app: capabilityApp(capability), capability });
    } else {
      const first = call.tool.apps[0]!;
      if (!call.tool.apps.some(reads)) throw await permissionNeeded(call, { app: first, capability: readCapability(first) });
      ctx = context(call, read, reads);
    }
    const work = () => call.tool.run(ctx, args);
    try {
      return capability ? await once(call, args, work) : await work();
    } catch (err) {
      throw await asApiError(call, err, capability);
    }
  } catch (err) {
    outcome = err instanceof ApiError ? err.code : "internal_error";
    throw err;
  } finally {
    recordAccess({ userId: call.userId, agentId: call.agent.id, agentName: call.agent.displayName, plane: call.plane, surface: call.surface, action: call.tool.name, outcome });
  }
}

/** Forgets idempotency keys past their 24 hours; answers how many. */
export async function sweepConnectorActions(): Promise<number> {
  const cutoff = new Date(clockNow().getTime() - ACTION_KEY_TTL_HOURS * 3_600_000);
  return (await (await db()).connectorAction.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}
