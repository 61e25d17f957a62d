// The request path of a route contract as lists of named steps, as oidc-provider composes its token
// action: request steps run in order before the handler (each may refuse the request by throwing),
// result steps shape the handler's JSON answer, answer steps run in order on every answer, errors
// included. Each step reads the contract once, when the route is defined, and joins that route only
// when its contract calls for it; a route runs its own steps and no others.
import type { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { JsonAnswer, toWebResponse, webApiRequest, type Answer, type ApiRequest } from "./api-request";
import type { CallerKey, ResolvedAgent, ResolvedUser } from "./caller";
import { ForClient } from "./cors";
import { apiErrorAnswer, routeMeta, type AuthSpec, type HandlerResult, type RouteContext, type RouteContract, type RouteDefinition, type RouteHandler } from "./define-route";
import { ApiError } from "./errors";
import { clientIp, newRequestId } from "./request";
import type { TurnHeaders } from "./turns";

/** One request on its way through a route: what the steps found out so far. */
export interface RouteState {
  readonly req: ApiRequest;
  readonly requestId: string;
  readonly ip: string;
  /** When the request arrived, by the service's clock (lib/platform/clock.ts), and by performance.now() for its latency. */
  readonly at: Date;
  readonly started: number;
  key: CallerKey | null;
  agent: ResolvedAgent | null;
  user: ResolvedUser | null;
  query: unknown;
  body: unknown;
  /** The conversation and turn the request named (a turn route only). */
  turn: TurnHeaders | null;
  /** The /v1 error code of what the route threw, when it threw an ApiError. */
  thrownCode?: string;
  /** The OAuth client the answer is for: the handler returns it, or throws it with its error (ForClient). */
  corsClient?: string;
  /** Memos of the answer, read by several answer steps. */
  errorCode?: Promise<string>;
  latencyMs?: number;
}

type Pending = void | Promise<void>;

/** A step before the handler: given the contract, its work on each request, or null when the contract does not call for it. */
export type RequestStep = (def: RouteContract) => ((state: RouteState) => Pending) | null;
/** A step on the handler's JSON body (not on a Response it returns). */
export type ResultStep = (def: RouteContract) => ((body: unknown, state: RouteState) => unknown) | null;
/** A step on the answer, whatever it is: a handler's, or an error's. */
export type AnswerStep = (def: RouteContract) => ((response: Answer, state: RouteState) => Pending) | null;

export interface RoutePipeline {
  request: readonly RequestStep[];
  result: readonly ResultStep[];
  answer: readonly AnswerStep[];
}

/**
 * Runs `use` with the answer's /v1 error code: null below 400, at once; for an error answer the code
 * thrown, or the one read from a clone of its body (the body still goes out), read once per answer.
 */
export function withErrorCode(response: Answer, state: RouteState, use: (code: string | null) => void): Pending {
  if (response.status < 400) return use(null);
  state.errorCode ??= state.thrownCode ? Promise.resolve(state.thrownCode) : errorCodeOf(response);
  return state.errorCode.then(use);
}

async function errorCodeOf(response: Answer): Promise<string> {
  try {
    const body = (response instanceof JsonAnswer ? JSON.parse(response.text ?? "") : await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === "string" ? body.error.code : `http_${response.status}`;
  } catch {
    return `http_${response.status}`;
  }
}

/** Milliseconds since the request arrived, measured once: every answer step after the first reads the same figure. */
export function latencyMs(state: RouteState): number {
  state.latencyMs ??= performance.now() - state.started;
  return state.latencyMs;
}

function stepsOf<T>(steps: readonly ((def: RouteContract) => T | null)[], def: RouteContract): T[] {
  return steps.map((step) => step(def)).filter((run): run is T => run !== null);
}

function toAnswer(result: HandlerResult, state: RouteState, shape: ((body: unknown, state: RouteState) => unknown)[]): Answer {
  if (result instanceof Response) return result;
  if (result.corsClient !== undefined) state.corsClient = result.corsClient;
  const status = result.status ?? 200;
  const headers = { "Cache-Control": "no-store", ...result.headers };
  if (result.body === undefined) return new JsonAnswer(status, null, headers);
  let body: unknown = result.body;
  for (const step of shape) body = step(body, state);
  return new JsonAnswer(status, JSON.stringify(body), headers);
}

/** `defineRoute` for a pipeline: each contract it is given becomes a handler running the steps that contract calls for. */
export function routeDefiner(pipeline: RoutePipeline) {
  return function defineRoute<BS extends z.ZodType = z.ZodUndefined, QS extends z.ZodType = z.ZodUndefined, A extends AuthSpec = AuthSpec>(
    def: RouteDefinition<BS, QS, A>,
  ): RouteHandler {
    const contract: RouteContract = def;
    const before = stepsOf(pipeline.request, contract);
    const shape = stepsOf(pipeline.result, contract);
    const after = stepsOf(pipeline.answer, contract);
    const errorAnswer = def.errorShape ?? apiErrorAnswer;

    const serve = async (req: ApiRequest, params: Record<string, string>): Promise<Answer> => {
      const state: RouteState = {
        req,
        requestId: newRequestId(),
        ip: clientIp(req),
        at: clockNow(),
        started: performance.now(),
        key: null,
        agent: null,
        user: null,
        query: undefined,
        body: undefined,
        turn: null,
      };
      let response: Answer;
      try {
        for (const step of before) {
          const pending = step(state);
          if (pending) await pending;
        }
        const { requestId, ip, body, query, key, agent, user } = state;
        // The web Request is made only for a handler that reads it.
        const ctx = {
          get req() {
            return req.web();
          },
          request: req,
          requestId,
          ip,
          params,
          body,
          query,
          key,
          agent,
          user,
        } as RouteContext<z.output<BS>, z.output<QS>, A>;
        response = toAnswer(await def.handler(ctx), state, shape);
      } catch (thrown) {
        let err = thrown;
        if (err instanceof ForClient) {
          state.corsClient = err.clientId;
          err = err.cause;
        }
        if (err instanceof ApiError && !def.errorShape) state.thrownCode = err.code;
        response = errorAnswer(err, state.requestId);
      }
      for (const step of after) {
        const pending = step(response, state);
        if (pending) await pending;
      }
      return response;
    };
    const handler = async (req: Request, routeCtx?: { params?: Promise<Record<string, string>> }) => toWebResponse(await serve(webApiRequest(req), (await routeCtx?.params) ?? {}));
    return Object.assign(handler, { meta: routeMeta(contract), serve });
  };
}
