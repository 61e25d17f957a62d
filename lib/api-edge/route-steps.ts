// The route steps that need the domains: who the request is from (the key, the agent, the person,
// lib/credentials) and the records of it (the person's access log, the developer's request log).
// The rest of the request path is the HTTP layer's own (lib/http/route-steps/).
import { recordAccess } from "../access-log/access-log";
import * as credentials from "../credentials/credentials";
import { latencyMs, withErrorCode, type AnswerStep, type RequestStep } from "../http/route-pipeline";
import { restCorrelation } from "../http/turns";
import { recordRequest } from "../request-log/record";

export const authenticate: RequestStep = (def) => {
  const { key } = def.auth;
  if (key === "none") return null;
  return async (s) => {
    s.key = await credentials.authenticateKey(s.req, key);
  };
};

export const resolveAgent: RequestStep = (def) =>
  def.auth.key !== "none" && def.auth.agent
    ? async (s) => {
        if (s.key) s.agent = await credentials.resolveAgent(s.req, s.key);
      }
    : null;

/** The person, by Bearer token or X-User-Id, who approved the agent ("required", "optional"). */
export const resolveUser: RequestStep = (def) => {
  const { auth } = def;
  if (auth.key === "none" || !auth.agent || (auth.user !== "required" && auth.user !== "optional")) return null;
  const required = auth.user === "required";
  return async (s) => {
    if (s.key && s.agent) s.user = await credentials.resolveUser(s.req, { key: s.key, agent: s.agent, required, scope: auth.scope });
  };
};

/**
 * The person, by Bearer token alone ("token": the connector tools). It runs after the inputs are
 * validated, as those routes always have: a malformed call is refused as malformed, token or not.
 */
export const resolveTokenUser: RequestStep = (def) => {
  const { auth } = def;
  if (auth.key === "none" || !auth.agent || auth.user !== "token") return null;
  return async (s) => {
    if (s.key && s.agent) s.user = await credentials.requireUserToken(s.req, { key: s.key, agent: s.agent });
  };
};

/**
 * The person's access log: a call made for a person, with its outcome. A token-authoritative route
 * ("token": the connector tools) records its calls itself, under the tool's name.
 */
export const accessLog: AnswerStep = (def) => {
  if (def.auth.user !== "required" && def.auth.user !== "optional") return null;
  const action = `${def.method} ${def.path}`;
  return (response, s) => {
    const { user, agent, key } = s;
    if (!user || !agent || !key) return;
    const correlation = def.turn ? restCorrelation({ developerId: key.developerId, plane: key.plane, agentId: agent.id }, s.turn) : undefined;
    const entry = { userId: user.id, agentId: agent.id, agentName: agent.displayName, plane: key.plane, ...correlation, surface: "rest", action } as const;
    return withErrorCode(response, s, (code) => recordAccess({ ...entry, outcome: code ?? "ok" }));
  };
};

/** The developer's request log: every /v1 request whose key resolved, refused ones too. */
export const requestLog: AnswerStep = (def) => {
  if (def.auth.key === "none" || !def.path.startsWith("/v1/")) return null;
  return (response, s) => {
    const { key } = s;
    if (!key) return;
    return withErrorCode(response, s, (errorCode) =>
      recordRequest({
        id: s.requestId,
        developerId: key.developerId,
        plane: key.plane,
        agentId: s.agent?.id ?? null,
        at: s.at,
        method: def.method,
        route: def.path,
        status: response.status,
        errorCode,
        latencyMs: Math.round(latencyMs(s)),
      }),
    );
  };
};
