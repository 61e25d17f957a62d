// Server actions over real HTTP against the production server: a POST crafted with malformed arguments
// gets the action's refusal (never a 500), and one from another site's origin is answered 403 before
// the framework runs it (lib/actions/define-action.ts, lib/http/action-origin.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ACTION_MESSAGES, CROSS_ORIGIN_ACTION_MESSAGE } from "../lib/http/action-origin";

type ManifestEntry = { workers?: Record<string, { filename?: string; exportedName?: string }>; filename?: string; exportedName?: string };

/** The id the build gave an exported action of a file (from the build's server reference manifest). */
function actionId(file: string, exportedName: string): string {
  const manifest = JSON.parse(readFileSync(path.resolve(".next/server/server-reference-manifest.json"), "utf8")) as { node: Record<string, ManifestEntry> };
  for (const [id, entry] of Object.entries(manifest.node)) {
    const named = [entry, ...Object.values(entry.workers ?? {})];
    if (named.some((e) => e.exportedName === exportedName && (e.filename ?? "").endsWith(file))) return id;
  }
  throw new Error(`no action ${exportedName} of ${file} in the manifest: ${JSON.stringify(Object.values(manifest.node)[0]).slice(0, 400)}`);
}

test("a server action called with malformed arguments answers its refusal, not a 500", async ({ request, baseURL }) => {
  const id = actionId("app/(hosted)/flow/[flowId]/actions.ts", "previewAction");
  const origin = new URL(baseURL!).origin;
  for (const args of ['["flw_x",null,"not a form"]', '[{"not":"an id"}]', '["flw_x\\u0000",null]']) {
    const res = await request.post("/flow/flw_x", { headers: { "next-action": id, origin, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" }, data: args });
    expect(res.status(), args).toBe(200);
    expect(await res.text(), args).toContain(ACTION_MESSAGES.invalidArguments);
  }
});

test("every family's actions answer malformed arguments with the refusal: the account's and the dashboard's", async ({ request, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  for (const [file, name, page, args] of [
    ["app/(hosted)/account/actions.ts", "disconnectAction", "/account", '[{"app":"gmail"}]'],
    ["app/(hosted)/account/actions.ts", "deleteAccountAction", "/account/delete", '["not a form"]'],
    ["app/(site)/dashboard/settings-actions.ts", "createKeyAction", "/dashboard/keys", "[42]"],
    ["app/(site)/dashboard/account-actions.ts", "switchAccountAction", "/dashboard", "[]"],
  ] as const) {
    const res = await request.post(page, {
      headers: { "next-action": actionId(file, name), origin, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
      data: args,
    });
    expect(res.status(), `${name}${args}`).toBe(200);
    expect(await res.text(), `${name}${args}`).toContain(ACTION_MESSAGES.invalidArguments);
  }
});

test("a server action POST from another site's origin is answered 403, and nothing runs", async ({ request, baseURL }) => {
  const id = actionId("app/(site)/dashboard/account-actions.ts", "sendCodeAction");
  for (const origin of ["https://evil.example", "null"]) {
    const res = await request.post("/dashboard/sign-in", { headers: { "next-action": id, origin, "content-type": "text/plain;charset=UTF-8" }, data: '[null,"$K1"]' });
    expect(res.status(), origin).toBe(403);
    expect(await res.text()).toBe(CROSS_ORIGIN_ACTION_MESSAGE);
  }
  // The same POST from the service's own origin reaches the action (which answers its form's state).
  const same = await request.post("/dashboard/sign-in", {
    headers: { "next-action": id, origin: new URL(baseURL!).origin, "content-type": "text/plain;charset=UTF-8" },
    data: '[null,"not a form"]',
  });
  expect(same.status()).toBe(200);
  expect(await same.text()).toContain(ACTION_MESSAGES.invalidArguments);
});
