// The one state a form keeps across its server action's answers (useActionState's), for every form of
// the service: a confirmation, a refusal beside the field it is about, or a secret shown this once.
// The domain errors a server action meets become this state here, and only here.
import { redirect } from "next/navigation";
import { z, ZodError } from "zod";
import { DashboardError } from "../developer-auth/errors";
import { FlowError, StepAlreadyDone, StepError } from "../flow/errors";
import type { ActionProblem } from "../http/action-input";
import { ApiError } from "../http/errors";

/** The state as the form sends it back with its next submission (checked like any argument: a client can craft it). */
export const actionStateSchema = z
  .object({
    ok: z.string().optional(),
    error: z.string().optional(),
    /** The field a refusal is about; "form" for the form as a whole. */
    field: z.string().optional(),
    /** A new secret, shown once: it is not stored anywhere it could be read again. */
    secret: z.object({ label: z.string(), value: z.string(), note: z.string().optional() }).strict().optional(),
  })
  .strict()
  .nullable();

export type ActionState = z.output<typeof actionStateSchema>;

/** A call the contract refused (its arguments, its origin): shown beside the field at fault, or the whole form. */
export function refusalState(problem: ActionProblem): ActionState {
  return { error: problem.message, field: problem.fields[0]?.field ?? "form" };
}

/**
 * What a domain error means to the form that met it: a refusal shown beside its field. A flow that moved
 * on meanwhile (another tab took the step, it ended or expired) sends the browser back to the flow, which
 * shows where it is. Anything else is not the form's to show, and is thrown on: a redirect, a fault.
 */
export function errorState(err: unknown, flowId?: string): ActionState {
  if ((err instanceof StepAlreadyDone || err instanceof FlowError) && flowId !== undefined) redirect(`/flow/${flowId}`);
  if (err instanceof StepError || err instanceof DashboardError) return { error: err.message, field: err.field };
  if (err instanceof ApiError) return { error: err.message };
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue ? String(issue.path.at(-1) ?? "") || undefined : undefined;
    return { error: issue ? `${String(issue.path.at(-1) ?? "value")}: ${issue.message}` : "Check the form and try again.", field };
  }
  throw err;
}
