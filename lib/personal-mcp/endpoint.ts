// The personal MCP endpoint ({MCP_URL}), for MCP clients people install themselves. Stateless
// Streamable HTTP with JSON answers, like the developer server, with another credential and tool list:
// - no token: the client may initialize and list, and sees only service_connect; calling any tool
//   answers 401 with WWW-Authenticate naming the protected-resource metadata, which starts the client's
//   sign-in (the MCP authorization spec);
// - a token the service issued to a personal MCP client, for a person who still approves it: exactly
//   the six profile tools, acting as that client's agent for that person;
// - any other token (unknown, expired, revoked, another client's, an approval revoked since): 401
//   invalid_token, so the client refreshes or signs in again.
import { z } from "zod";
import { verifyAccessToken } from "../bearer-tokens/access-token";
import { db } from "../platform/db";
import { databaseUnavailable } from "../platform/db/unavailable";
import { toWebResponse, type Answer } from "../http/api-request";
import { bearerToken, newRequestId, readBodyText } from "../http/request";
import { apiErrorAnswer } from "../http/define-route";
import { requestLogger } from "../platform/log";
import { observeRequest } from "../platform/metrics";
import { mcpServiceUnavailable } from "../mcp/json-rpc";
import { answerMcp, mcpMethodNotAllowed, MCP_BODY_LIMIT } from "../mcp/server";
import type { McpCaller } from "../mcp/caller";
import { PERSONAL_TOOLS, type OpenTool } from "../mcp/tools";
import { isApproved } from "../users/approvals";
import { TtlCache } from "../platform/cache";
import { isPersonalMcpAccount, PERSONAL_MCP_DEVELOPER_ID, PERSONAL_MCP_PLANE } from "../developers/personal-mcp-account";
import { personalChallenge } from "./metadata";

export const PERSONAL_TOKEN_REFUSED = "The access token is unknown, expired or revoked, or was not issued for this endpoint: sign in again.";
export const PERSONAL_APPROVAL_REVOKED = "The person no longer approves this client: sign in again.";

/**
 * What a client lists before anyone has signed in. Calling it answers 401 (the client then signs the
 * person in); it is never run.
 */
export const SIGN_IN_TOOL: OpenTool<z.ZodObject> = {
  name: "service_connect",
  title: "Sign in to your profile",
  personal: false,
  description:
    "Sign the user in to their personal profile so this assistant can read it and add to it. " +
    "Call it when the user wants their profile, preferences or memories used. The MCP client then opens the service's sign-in page in the browser; " +
    "after sign-in this tool is replaced by the profile tools (service_profile_read, _search, _remember, _forget, _commit, _import).",
  input: z.object({}),
  run: async () => {
    throw new Error("service_connect is answered with 401 before it runs");
  },
};

const agentCache = new TtlCache<{ id: string; handle: string; displayName: string } | null>("personal-mcp-agents");

async function agentOf(agentId: string) {
  return agentCache.through(agentId, () =>
    db().then((prisma) => prisma.agent.findFirst({ where: { id: agentId, developerId: PERSONAL_MCP_DEVELOPER_ID }, select: { id: true, handle: true, displayName: true } })),
  );
}

function unauthorized(requestId: string, error?: string): Response {
  const body = error
    ? { error: { code: "invalid_access_token", message: error }, request_id: requestId }
    : { error: { code: "unauthorized", message: "Sign in to use the profile tools." }, request_id: requestId };
  return new Response(JSON.stringify(body), {
    status: 401,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "WWW-Authenticate": personalChallenge(error ? { code: "invalid_token", description: error } : undefined),
    },
  });
}

/** Whether a JSON-RPC body (one message or a batch) calls a tool. */
function callsTool(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "tools/call");
}

/**
 * Who a token names: the person and the client's agent, or why it is refused. Checked on every request
 * (no cache of the token or the approval beyond the service's usual second), so a revoked token or
 * approval stops the next call.
 */
async function personalCaller(token: string): Promise<{ caller: McpCaller } | { refused: string }> {
  const grant = await verifyAccessToken(token);
  if (!grant || !isPersonalMcpAccount(grant.developerId) || grant.plane !== PERSONAL_MCP_PLANE) return { refused: PERSONAL_TOKEN_REFUSED };
  const agent = await agentOf(grant.agentId);
  if (!agent) return { refused: PERSONAL_TOKEN_REFUSED };
  if (!(await isApproved({ userId: grant.userId, agentId: agent.id }))) return { refused: PERSONAL_APPROVAL_REVOKED };
  return {
    caller: {
      // The personal account holds no API key: the caller names the account and plane the client acts in.
      key: { id: grant.clientId, developerId: PERSONAL_MCP_DEVELOPER_ID, kind: "secret", plane: PERSONAL_MCP_PLANE },
      agent,
      person: { kind: "user", userId: grant.userId, scopes: grant.scopes },
    },
  };
}

/** POST {MCP_URL}. */
export async function servePersonalMcp(req: Request): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  let answer: Answer;
  let signedIn = false;
  try {
    const token = bearerToken(req);
    const body = await readBodyText(req, MCP_BODY_LIMIT);
    if (token) {
      const who = await personalCaller(token);
      if ("refused" in who) {
        answer = unauthorized(requestId, who.refused);
      } else {
        signedIn = true;
        answer = await answerMcp({ req, body, caller: who.caller, tools: PERSONAL_TOOLS });
      }
    } else if (callsTool(body)) {
      answer = unauthorized(requestId);
    } else {
      answer = await answerMcp({ req, body, caller: null, tools: [SIGN_IN_TOOL] });
    }
  } catch (err) {
    answer = databaseUnavailable(err) ? mcpServiceUnavailable(err, { requestId }) : apiErrorAnswer(err, requestId);
  }
  const response = toWebResponse(answer);
  response.headers.set("X-Request-Id", requestId);
  for (const [k, v] of Object.entries(CORS)) response.headers.set(k, v);
  observeRequest({ route: "/personal-mcp", method: req.method, status: response.status, latencyMs: performance.now() - started });
  requestLogger().info(
    {
      request_id: requestId,
      method: req.method,
      route: "/personal-mcp",
      status: response.status,
      latency_ms: Math.round((performance.now() - started) * 10) / 10,
      signed_in: signedIn,
    },
    "request",
  );
  return response;
}

/**
 * Any origin may call the endpoint (an MCP client running in a browser): the credential is a bearer
 * token the page holds, never a cookie, so a page learns nothing it did not already have. The 401's
 * WWW-Authenticate is exposed so the client can find the metadata.
 */
const CORS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, X-Request-Id",
  "Access-Control-Max-Age": "600",
};

export function personalMcpPreflight(): Response {
  return new Response(null, { status: 204, headers: CORS });
}

/** GET and DELETE: a stateless endpoint has no stream to open and no session to end. */
export function personalMcpMethodNotAllowed(): Response {
  const response = mcpMethodNotAllowed();
  for (const [k, v] of Object.entries(CORS)) response.headers.set(k, v);
  return response;
}
