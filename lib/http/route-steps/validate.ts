// Validate: the query and the JSON body, each by its zod schema in the contract. Text no contract may
// take (lib/http/text-input.ts) is refused first, naming its field; then the schema's problems, by
// their dotted paths.
import type { z } from "zod";
import { ApiError, type ErrorCode } from "../errors";
import type { RequestStep } from "../route-pipeline";
import { readJsonBody } from "../api-request";
import { unsafeTextField, unsafeTextProblem } from "../text-input";

function refuseUnsafeText(input: unknown, code: ErrorCode, where: string): void {
  const field = unsafeTextField(input);
  if (field !== null) throw new ApiError(code, `Invalid ${where}: ${field}.`, { fields: [unsafeTextProblem(field)] });
}

function parse(schema: z.ZodType, input: unknown, code: ErrorCode, where: string): unknown {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "(root)", message: i.message }));
    throw new ApiError(code, `Invalid ${where}: ${fields.map((f) => f.field).join(", ")}.`, { fields });
  }
  return parsed.data;
}

export const validateQuery: RequestStep = (def) => {
  const schema = def.query;
  if (!schema) return null;
  return (s) => {
    const params = new URL(s.req.url).searchParams;
    refuseUnsafeText(params, "invalid_request", "query parameters");
    s.query = parse(schema, Object.fromEntries(params), "invalid_request", "query parameters");
  };
};

export const validateBody: RequestStep = (def) => {
  const schema = def.body;
  if (!schema) return null;
  const code = def.invalidCode ?? "invalid_request";
  const { bodyLimit } = def;
  return async (s) => {
    // A cap per key (bulk import's tiers) needs the key; without one the default cap applies.
    const limit = typeof bodyLimit === "function" ? (s.key ? await bodyLimit(s.key) : undefined) : bodyLimit;
    const raw = await readJsonBody(s.req, limit);
    refuseUnsafeText(raw, code, "request body");
    s.body = parse(schema, raw ?? {}, code, "request body");
  };
};
