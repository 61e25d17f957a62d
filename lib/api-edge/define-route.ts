// defineRoute: a route contract (lib/http/define-route.ts) served by its request path, one list of
// named steps. Before the handler: the per-IP limit, the key, the test plane, the per-key limit, the
// agent, the person, the turn headers, the query and the body (then, on a token-authoritative route,
// the person its Bearer token names). On the handler's JSON: livemode. On every answer, errors
// included: X-Request-Id, the turn headers again, the person's access log, CORS, the developer's
// request log, one log line. A step joins a route only when its contract calls for it.
import { routeDefiner } from "../http/route-pipeline";
import { cors, logLine, stampRequestId } from "../http/route-steps/answer";
import { livemode } from "../http/route-steps/livemode";
import { rateLimitByIp, rateLimitByKey } from "../http/route-steps/rate-limit";
import { requireTestPlane } from "../http/route-steps/test-plane";
import { echoTurn, readTurn } from "../http/route-steps/turn";
import { validateBody, validateQuery } from "../http/route-steps/validate";
import { accessLog, authenticate, requestLog, resolveAgent, resolveTokenUser, resolveUser } from "./route-steps";

export const defineRoute = routeDefiner({
  request: [rateLimitByIp, authenticate, requireTestPlane, rateLimitByKey, resolveAgent, resolveUser, readTurn, validateQuery, validateBody, resolveTokenUser],
  result: [livemode],
  answer: [stampRequestId, echoTurn, accessLog, cors, requestLog, logLine],
});
