// Flows brought to a given screen through the real steps, for tests of what happens there.
import { expect } from "vitest";
import { db } from "@/lib/platform/db";
import { createTenant } from "./fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "./oauth";

/** An OpenID Connect sign-in asking for email, brought to the mailbox page after the code. */
export async function atMailboxPage(phone: string) {
  const { findFlow } = await import("@/lib/flow/store");
  const steps = await import("@/lib/flow/steps");
  const { phoneDigest } = await import("@/lib/users/phone");
  const t = await createTenant();
  const { client_id } = await registerClient(t);
  const { verifier, challenge } = pkce();
  const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, challenge, { scope: "openid email" })));
  const reload = async () => (await findFlow(flowId))!;
  await steps.previewImport(await reload(), { provider: "chatgpt", text: "- I live in Lyon" });
  await steps.decidePreview(await reload(), { provider: "chatgpt", keep: true });
  await steps.continueFromImport(await reload());
  await steps.submitPhone(await reload(), { phone, ip: "10.9.0.1" });
  const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  const { userId } = await steps.submitCode(await reload(), { code: sms.body.slice(0, 6) });
  expect((await reload()).screen).toBe("mailbox");
  return { flowId, userId, client_id, verifier, reload, steps };
}
