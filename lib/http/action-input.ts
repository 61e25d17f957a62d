// What a server action may be called with. A server action is a public POST endpoint whose arguments
// anyone can craft, so its contract (lib/actions/define-action.ts) declares them as zod schemas — the
// arguments a page binds, the form state, the form's fields — and they are checked here before the
// action runs: text no request may carry (lib/http/text-input.ts) anywhere, then the schemas. A call
// they refuse is one problem, naming the argument or field at fault.
import { z } from "zod";
import { ACTION_MESSAGES } from "./action-origin";
import { unsafeTextField, UNSAFE_TEXT_MESSAGE } from "./text-input";

/** Why a call was refused before its action ran: invalid_request (its arguments), forbidden (its origin). */
export interface ActionProblem {
  code: "invalid_request" | "forbidden";
  message: string;
  /** The arguments at fault: a form field by its name, another argument by its declared name. */
  fields: Array<{ field: string; message: string }>;
}

export { ACTION_MESSAGES };

/** A named argument: its name is what a refusal says is at fault. */
export function arg<S extends z.ZodType>(name: string, schema: S): S {
  return schema.meta({ argument: name });
}

/** A named text argument (an id a page bound to the action): a string of bounded length. */
export function textArg(name: string, max = 200) {
  return arg(name, z.string().max(max));
}

// ── A form's fields ─────────────────────────────────────────────────────────────────────────────

/** A text field: its text, "" when the form leaves it out. A file where text belongs is refused. */
export function text() {
  return z.union([z.string(), z.null()], { error: "Expected text." }).transform((v) => v ?? "");
}

/** A checkbox: whether it was ticked (a ticked box sends "on"). */
export function checkbox() {
  return z.union([z.string(), z.null()], { error: "Expected a checkbox." }).transform((v) => v === "on");
}

/** A file field: the file chosen, or undefined when none was (a form sends an empty, nameless file then). */
export function file() {
  return z.union([z.custom<File>(isFile), z.null()], { error: "Expected a file." }).transform((v) => (v && v.size > 0 ? v : undefined));
}

export type FormFields = Record<string, z.ZodType<unknown, FormDataEntryValue | null>>;
export type FormValues<F extends FormFields> = { [N in keyof F]: z.output<F[N]> };

/** A form (FormData) read into its declared fields, each parsed by its schema; fields it does not declare are not read. */
export function formOf<F extends FormFields>(fields: F) {
  return arg(
    "form",
    z.custom<FormData>(isFormData, { message: "Expected a form." }).transform((form, ctx) => {
      const values: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(fields)) {
        const parsed = schema.safeParse(form.get(name));
        if (parsed.success) values[name] = parsed.data;
        else for (const issue of parsed.error.issues) ctx.issues.push({ code: "custom", message: issue.message, path: [name, ...issue.path], input: form.get(name) });
      }
      return values as FormValues<F>;
    }),
  );
}

/** Whether `value` is a FormData, also one another copy of the platform made. */
export function isFormData(value: unknown): value is FormData {
  if (value instanceof FormData) return true;
  const v = value as Partial<FormData> | null;
  return typeof v === "object" && v !== null && Object.prototype.toString.call(v) === "[object FormData]" && typeof v.get === "function" && typeof v.entries === "function";
}

/** Whether `value` is a File, also one another copy of the platform made. */
function isFile(value: unknown): value is File {
  if (typeof File !== "undefined" && value instanceof File) return true;
  return Object.prototype.toString.call(value) === "[object File]";
}

// ── The check ───────────────────────────────────────────────────────────────────────────────────

type Outputs<A extends readonly z.ZodType[]> = { [K in keyof A]: z.output<A[K]> };

/** The name an argument was declared with (arg), or its place. */
export function argumentName(schema: z.ZodType | undefined, index: number): string {
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

/** The arguments an action takes: those declared, and after them whatever the framework adds, unread. */
function argumentsOf(args: readonly z.ZodType[], rest: z.ZodType) {
  return z.tuple(args as unknown as [z.ZodType, ...z.ZodType[]]).rest(rest);
}

/**
 * A call's parsed arguments, or the problem with them: text no request may carry, or what the schemas
 * refuse. `rest` is what may follow the declared arguments (by default anything, unread).
 */
export function checkArguments<A extends readonly z.ZodType[]>(
  args: A,
  values: readonly unknown[],
  rest: z.ZodType = z.unknown(),
): { ok: true; args: Outputs<A> } | { ok: false; problem: ActionProblem } {
  for (const [index, value] of values.entries()) {
    const unsafe = unsafeTextField(value, [index]);
    if (unsafe === null) continue;
    const field = fieldOf(args, values, [index, ...unsafe.split(".").slice(1)]);
    return { ok: false, problem: { code: "invalid_request", message: ACTION_MESSAGES.invalidArguments, fields: [{ field, message: UNSAFE_TEXT_MESSAGE }] } };
  }
  const parsed = argumentsOf(args, rest).safeParse(values);
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
