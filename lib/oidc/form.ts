// The form body of the token and revocation endpoints (application/x-www-form-urlencoded).
import type { ApiRequest } from "../http/api-request";
import { unsafeTextField } from "../http/text-input";
import { invalidRequest, OAUTH_MESSAGES, parameterRepeated, unsafeParameter } from "./errors";

/** Token requests are small; anything larger is not one. */
export const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/** The parameters of a form body. A parameter sent twice is refused (RFC 6749 § 3.2). */
export async function readForm(req: Pick<ApiRequest, "headers" | "bodyText">): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) throw invalidRequest(OAUTH_MESSAGES.formRequired);
  const form = new URLSearchParams(await req.bodyText(FORM_BODY_LIMIT_BYTES));
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw invalidRequest(parameterRepeated(key));
    seen.add(key);
  }
  const unsafe = unsafeTextField(form);
  if (unsafe !== null) throw invalidRequest(unsafeParameter(unsafe));
  return form;
}
