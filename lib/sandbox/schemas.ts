// The wire schemas of the sandbox routes' answers (provision, reset, simulate).
import { z } from "zod";
import { PREFIX } from "../platform/ids";
import { SANDBOX_AGENT_HANDLE, SANDBOX_EXTERNAL_ID, SANDBOX_PHONE, SANDBOX_SCENARIOS, SANDBOX_VERIFICATION_CODE } from "./seed";

/** POST /v1/sandbox/provision (201): the test keys, the agent and the synthetic user. */
export const provisionResponse = z.strictObject({
  secret_key: z.string().startsWith(PREFIX.secretTestKey),
  publishable_key: z.string().startsWith(PREFIX.publishableTestKey),
  agent: z.strictObject({ handle: z.literal(SANDBOX_AGENT_HANDLE), sign_in_url: z.string() }),
  user: z.strictObject({
    id: z.uuid(),
    external_id: z.literal(SANDBOX_EXTERNAL_ID),
    phone: z.literal(SANDBOX_PHONE),
    verification_code: z.literal(SANDBOX_VERIFICATION_CODE),
    agent_token: z.string(),
  }),
});

/** POST /v1/sandbox/reset. */
export const resetResponse = z.strictObject({
  ok: z.literal(true),
  user: z.strictObject({ id: z.uuid(), external_id: z.literal(SANDBOX_EXTERNAL_ID) }),
});

/** POST /v1/sandbox/simulate. */
export const simulateResponse = z.strictObject({
  ok: z.literal(true),
  scenario: z.enum(SANDBOX_SCENARIOS),
  active_scenarios: z.array(z.enum(SANDBOX_SCENARIOS)),
});
