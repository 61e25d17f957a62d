// What a dashboard form shows after its server action: a confirmation, a refusal with its field, or a
// secret shown this once. One translation of the errors the dashboard's services throw.
import { ZodError } from "zod";
import { DashboardError } from "../developer-auth/errors";
import { ApiError } from "../http/errors";

export type DashboardFormState = {
  ok?: string;
  error?: string;
  field?: string;
  /** A new secret, shown once: it is not stored anywhere it could be read again. */
  secret?: { label: string; value: string; note?: string };
} | null;

/** The form state for a refusal the dashboard's services throw; anything else is rethrown. */
export function formFailure(err: unknown): DashboardFormState {
  if (err instanceof DashboardError) return { error: err.message, field: err.field };
  if (err instanceof ApiError) return { error: err.message };
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    return { error: issue ? `${String(issue.path.at(-1) ?? "value")}: ${issue.message}` : "Check the form and try again.", field: issue ? String(issue.path.at(-1) ?? "") || undefined : undefined };
  }
  throw err;
}

/** A form field as text (absent or a file: empty). */
export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}
