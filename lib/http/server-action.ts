// The contract of every server action (the hosted flow's, the account pages', the dashboard's): a
// server action is a public POST endpoint whose arguments anyone can craft, so each one declares its
// arguments as zod schemas and runs only on arguments they accept. A refused call — arguments of the
// wrong kind or number, text no request may carry (lib/http/text-input.ts), another site's origin —
// answers one problem shape, which each family renders as its form state; nothing runs.
//
// Cross-origin action POSTs are answered 403 before the framework sees them (./action-origin.ts, from
// proxy.ts): the framework's own check would answer them 500. The wrapper checks the origin again.
import { headers } from "next/headers";
import { z } from "zod";
import { ACTION_MESSAGES, isCrossOrigin, requestHost } from "./action-origin";
import { unsafeTextField, UNSAFE_TEXT_MESSAGE } from "./text-input";

/** Why a call was refused before its action ran: invalid_request (its arguments), forbidden (its origin). */
export interface ActionProblem {
  code: "invalid_request" | "forbidden";
  message: string;
  /** The arguments at fault: a form field by its name, another argument by its declared name. */
  fields: Array<{ field: string; message: string }>;
}

export { ACTION_MESSAGES };

/** A form's fields as a server action receives them; `fields` names the ones it checks (absent: null). */
export function actionForm(fields: Record<string, z.ZodType> = {}) {
  const form = z.custom<FormData>(isFormData, { message: "Expected a form." }).superRefine((form, ctx) => {
    for (const [name, schema] of Object.entries(fields)) {
      const parsed = schema.safeParse(form.get(name));
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [name, ...issue.path] });
    }
  });
  return arg("form", form);
}

/** Whether `value` is a FormData, also one another copy of the platform made. */
function isFormData(value: unknown): value is FormData {
  if (value instanceof FormData) return true;
  const v = value as Partial<FormData> | null;
  return typeof v === "object" && v !== null && Object.prototype.toString.call(v) === "[object FormData]" && typeof v.get === "function" && typeof v.entries === "function";
}

/** A named argument: its name is what a refusal says is at fault. */
export function arg<S extends z.ZodType>(name: string, schema: S): S {
  return schema.meta({ argument: name });
}

/** The state a form keeps across submissions (useActionState's first argument): whatever the page kept. */
export function formState<S>() {
  return z.custom<S>(() => true);
}

/** A named text argument (an id a page bound to the action): a string of bounded length. */
export function textArg(name: string, max = 200) {
  return arg(name, z.string().max(max));
}

/** A named argument the action checks itself (a page's filters): anything the framework can send. */
export function anyArg(name: string) {
  return arg(name, z.unknown());
}

/** The refusal of an action that answers nothing (a form that redirects when it is done): nothing happens. */
export const refuseQuietly = (): undefined => undefined;

type Inputs<A extends readonly z.ZodType[]> = { [K in keyof A]: z.input<A[K]> };
type Outputs<A extends readonly z.ZodType[]> = { [K in keyof A]: z.output<A[K]> };

function argumentName(schema: z.ZodType | undefined, index: number): string {
  const meta = schema?.meta() as { argument?: unknown } | undefined;
  return typeof meta?.argument === "string" ? meta.argument : `argument ${index + 1}`;
}

/** A form's own fields go by their names; any other argument by its declared name (and path inside it). */
function fieldOf(args: readonly z.ZodType[], values: readonly unknown[], path: ReadonlyArray<PropertyKey>): string {
  const [index, ...rest] = path;
  if (typeof index !== "number") return "arguments";
  if (isFormData(values[index]) && rest.length) return rest.map(String).join(".");
  return [argumentName(args[index], index), ...rest.map(String)].join(".");
}

/** The arguments an action takes: those declared, and after them whatever the framework adds (a form), unread. */
function argumentsOf(args: readonly z.ZodType[]) {
  return z.tuple(args as unknown as [z.ZodType, ...z.ZodType[]]).rest(z.unknown());
}

/** A call's parsed arguments, or the problem with them: text no request may carry, or what the schemas refuse. */
export function checkArguments<A extends readonly z.ZodType[]>(args: A, values: readonly unknown[]): { ok: true; args: Outputs<A> } | { ok: false; problem: ActionProblem } {
  for (const [index, value] of values.entries()) {
    const unsafe = unsafeTextField(value, [index]);
    if (unsafe === null) continue;
    const field = fieldOf(args, values, [index, ...unsafe.split(".").slice(1)]);
    return { ok: false, problem: { code: "invalid_request", message: ACTION_MESSAGES.invalidArguments, fields: [{ field, message: UNSAFE_TEXT_MESSAGE }] } };
  }
  const parsed = argumentsOf(args).safeParse(values);
  if (parsed.success) return { ok: true, args: parsed.data as unknown as Outputs<A> };
  return {
    ok: false,
    problem: {
      code: "invalid_request",
      message: ACTION_MESSAGES.invalidArguments,
      fields: parsed.error.issues.map((i) => ({ field: fieldOf(args, values, i.path), message: i.message })),
    },
  };
}

/**
 * A server action under the contract: `args` are its arguments in order (bound ones first, then what
 * the form sends: useActionState's state and the form); `refuse` renders a refusal as the family's
 * form state; `run` gets the parsed arguments. Export the result from a "use server" module.
 */
export function serverAction<const A extends readonly z.ZodType[], R, S>(
  contract: { args: A; refuse: (problem: ActionProblem) => S },
  run: (...args: Outputs<A>) => Promise<R>,
): (...args: Inputs<A>) => Promise<R | S> {
  const action = async (...values: unknown[]): Promise<R | S> => {
    const h = await headers();
    if (isCrossOrigin(h.get("origin"), requestHost(h))) {
      return contract.refuse({ code: "forbidden", message: ACTION_MESSAGES.crossOrigin, fields: [] });
    }
    const checked = checkArguments(contract.args, values);
    if (!checked.ok) return contract.refuse(checked.problem);
    return run(...checked.args);
  };
  // Callers see the declared arguments; the action itself takes whatever a request carries.
  return action as (...args: Inputs<A>) => Promise<R | S>;
}
