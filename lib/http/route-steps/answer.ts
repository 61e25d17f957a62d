// The steps every answer takes: its X-Request-Id, the route's CORS policy, and one log line (and its metrics).
import { requestLogger } from "../../platform/log";
import { observeRequest } from "../../platform/metrics";
import { applyCors } from "../cors";
import { latencyMs, type AnswerStep } from "../route-pipeline";

export const stampRequestId: AnswerStep = () => (response, s) => {
  response.headers.set("X-Request-Id", s.requestId);
};

export const cors: AnswerStep = (def) => {
  const policy = def.cors ?? "closed";
  // A closed route adds nothing to its answers.
  return policy === "closed" ? null : async (response, s) => void (await applyCors(response, policy, s.req, s.corsClient));
};

export const logLine: AnswerStep = (def) => (response, s) => {
  observeRequest({ route: def.path, method: s.req.method, status: response.status, latencyMs: latencyMs(s) });
  requestLogger().info(
    {
      request_id: s.requestId,
      method: s.req.method,
      route: def.path,
      status: response.status,
      latency_ms: Math.round(latencyMs(s) * 10) / 10,
      developer_id: s.key?.developerId,
    },
    "request",
  );
};
