// defineAction: one contract per server action, the counterpart of defineRoute. A server action is a
// public POST endpoint whose arguments anyone can craft; its contract names who may call it (`auth`),
// the arguments a page binds (`bound`), whether its form keeps a state (`state`), and the form's fields
// it reads (`form`), each a zod schema. A call runs its handler only once all of these hold:
//
//   1. the request comes from the service's own pages (another site's Origin: refused, forbidden);
//   2. the arguments parse (lib/http/action-input.ts): otherwise refused, naming the one at fault;
//   3. the request carries the caller's credential (./callers.ts): otherwise what that kind answers.
//
// The handler gets its caller, the parsed input and the client's address; a domain error it throws
// becomes the form's state (./state.ts). A refusal changes nothing and answers the one state shape
// (`ActionState`) — never a server error. Export the result from a "use server" module: nothing else
// may be exported there (tests/actions/server-actions.test.ts and the lint rule in eslint.config.mjs hold it).
//
// Cross-origin action POSTs are answered 403 before the framework sees them (lib/http/action-origin.ts,
// from proxy.ts), as the framework would answer them 500; the contract checks the origin again.
import { headers } from "next/headers";
import type { z } from "zod";
import { ACTION_MESSAGES, isCrossOrigin, requestHost } from "../http/action-origin";
import { arg, argumentName, checkArguments, formOf, textArg, type FormFields, type FormValues } from "../http/action-input";
import { clientIpFromHeaders } from "../http/request";
import { CALLERS, type AuthKind, type Callers } from "./callers";
import { actionStateSchema, errorState, refusalState, type ActionState } from "./state";

/** The arguments a page binds, in order; "any" for a stand-in that takes whatever it is given (the screen gallery's). */
type Bound = readonly z.ZodType[] | "any";

type Inputs<B extends Bound> = B extends readonly z.ZodType[] ? { [I in keyof B]: z.input<B[I]> } : unknown[];
type Outputs<B extends Bound> = B extends readonly z.ZodType[] ? { [I in keyof B]: z.output<B[I]> } : readonly unknown[];
type FlowIdArgument<K extends AuthKind> = K extends "flow" ? [flowId: string] : [];
type Answer<S extends boolean> = S extends true ? ActionState : void;

export type ActionContext<K extends AuthKind, B extends Bound, F extends FormFields | undefined, S extends boolean> = Callers[K] & {
  bound: Outputs<B>;
  form: F extends FormFields ? FormValues<F> : undefined;
  /** The form's last state (useActionState's), for a form that keeps one. */
  state: S extends true ? ActionState : undefined;
  /** The client's address, as the server stamped it (lib/http/request.ts). */
  ip: string;
};

export interface ActionContract<K extends AuthKind, B extends Bound, F extends FormFields | undefined, S extends boolean> {
  auth: K;
  /** The arguments the page binds, in order (after the flow's id, which kind "flow" takes first). */
  bound?: B;
  /** Whether the form keeps a state: the action then takes the last one, before the form, and answers the next. */
  state?: S;
  /** The form's fields the action reads; absent: it reads no form. */
  form?: F;
  /** The field a refusal is shown beside when its error names none. */
  field?: string;
  handler: (ctx: ActionContext<K, B, F, S>) => Promise<Answer<S>>;
}

/**
 * The action as the page calls it: the flow's id (kind "flow"), the bound arguments, the state (a form
 * that keeps one), and the form. The form is optional in the type so that a form's action fits a button's
 * (React passes one either way); a contract that reads fields refuses a call without it. A form without a
 * state ignores the answer, so its type is void; a refusal still answers the state shape.
 */
export type Action<K extends AuthKind, B extends Bound, S extends boolean> = B extends "any"
  ? (...args: unknown[]) => Promise<Answer<S>>
  : S extends true
    ? (...args: [...FlowIdArgument<K>, ...Inputs<B>, state: ActionState, form?: FormData]) => Promise<ActionState>
    : (...args: [...FlowIdArgument<K>, ...Inputs<B>, form?: FormData]) => Promise<void>;

/** What a built action says of its contract: who may call it, and the arguments it declares, by name. */
export interface ActionMeta {
  auth: AuthKind;
  arguments: string[];
}

/** Where a built action keeps its meta (Symbol.for: the same in every copy of this module in the process). */
const META = Symbol.for("service.action-contract");

/** The contract of a server action built by defineAction, or null for any other function (what a "use server" module may not export). */
export function actionMeta(fn: unknown): ActionMeta | null {
  return typeof fn === "function" ? ((fn as unknown as Record<symbol, ActionMeta | undefined>)[META] ?? null) : null;
}

function withField(state: ActionState, field: string | undefined): ActionState {
  return state && field && state.field === undefined ? { ...state, field } : state;
}

export function defineAction<K extends AuthKind, const B extends Bound = [], F extends FormFields | undefined = undefined, S extends boolean = false>(
  contract: ActionContract<K, B, F, S>,
): Action<K, B, S> {
  const stateful = contract.state === true;
  const bound: readonly z.ZodType[] = Array.isArray(contract.bound) ? contract.bound : [];
  const declared: z.ZodType[] = [
    ...(contract.auth === "flow" ? [textArg("flowId")] : []),
    ...bound,
    ...(stateful ? [arg("state", actionStateSchema)] : []),
    ...(contract.form ? [formOf(contract.form)] : []),
  ];
  const kind = CALLERS[contract.auth];

  const action = async (...values: unknown[]): Promise<ActionState | void> => {
    const h = await headers();
    if (isCrossOrigin(h.get("origin"), requestHost(h))) return refusalState({ code: "forbidden", message: ACTION_MESSAGES.crossOrigin, fields: [] });
    const checked = checkArguments(declared, values);
    if (!checked.ok) return refusalState(checked.problem);

    const args = [...checked.args];
    const flowId = contract.auth === "flow" ? (args.shift() as string) : "";
    const form = contract.form ? args.pop() : undefined;
    const state = stateful ? args.pop() : undefined;
    const caller = await kind.resolve(flowId);
    if (!caller) return kind.refuse({ flowId, stateful });

    const ctx = { ...caller, bound: contract.bound === "any" ? values : args, form, state, ip: clientIpFromHeaders(h) };
    try {
      const answer = await contract.handler(ctx as unknown as ActionContext<K, B, F, S>);
      if (stateful) kind.changed?.();
      return answer;
    } catch (err) {
      return withField(errorState(err, contract.auth === "flow" ? flowId : undefined), contract.field);
    }
  };
  Object.defineProperty(action, META, { value: { auth: contract.auth, arguments: declared.map(argumentName) } satisfies ActionMeta });
  // Callers see the declared arguments; the action itself takes whatever a request carries.
  return action as unknown as Action<K, B, S>;
}
