// What the webhook tests share: a developer's receiver (a real local HTTP server), and the verification
// snippets of docs/webhooks.md, loaded from the page itself so the documented code is the code tested.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { startRecordingServer } from "../helpers/receiver";

/** Answers by path: /ok 200, /fail-once 500 then 200, /down 500, /redirect 302 to /target, anything else 200. */
export function startReceiver() {
  return startRecordingServer(({ path: p }, res, n) => {
    if (p === "/redirect") return void res.writeHead(302, { location: "/target" }).end();
    const status = p === "/down" ? 500 : p === "/fail-once" && n === 1 ? 500 : 200;
    res.writeHead(status, { "content-type": "text/plain" }).end("ok");
  });
}

const DOC = path.resolve(__dirname, "../../docs/webhooks.md");

/** The fenced block that follows `<!-- snippet: name -->` in docs/webhooks.md. */
export function documentedSnippet(name: string): string {
  const text = readFileSync(DOC, "utf8");
  const at = text.indexOf(`<!-- snippet: ${name} -->`);
  if (at < 0) throw new Error(`docs/webhooks.md has no snippet ${name}`);
  const open = text.indexOf("```", at);
  const start = text.indexOf("\n", open) + 1;
  return text.slice(start, text.indexOf("\n```", start) + 1);
}

type VerifyWebhook = (secret: string, headers: Record<string, string | string[] | undefined>, rawBody: string, nowMs?: number) => unknown;

/** The documented TypeScript verifier, imported from a copy of the page's block. */
export async function documentedTsVerifier(): Promise<VerifyWebhook> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "webhooks-verify-")), "verify.ts");
  writeFileSync(file, documentedSnippet("verify-ts"));
  return ((await import(file)) as { verifyWebhook: VerifyWebhook }).verifyWebhook;
}

/** Runs the documented Python verifier with python3 on one delivery: the event it returns, or its error. */
export function pythonVerifies(input: {
  secret: string;
  headers: IncomingHttpHeaders;
  raw: string;
  nowSeconds: number;
}): { ok: true; event: unknown } | { ok: false; error: string } {
  const driver = `${documentedSnippet("verify-py")}
import sys
args = json.loads(sys.stdin.read())
try:
    event = verify_webhook(args["secret"], args["headers"], args["raw"].encode("utf-8"), now=args["now"])
    print(json.dumps({"ok": True, "event": event}))
except ValueError as e:
    print(json.dumps({"ok": False, "error": str(e)}))
`;
  const headers = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const run = spawnSync("python3", ["-c", driver], { input: JSON.stringify({ secret: input.secret, headers, raw: input.raw, now: input.nowSeconds }), encoding: "utf8" });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { ok: true; event: unknown } | { ok: false; error: string };
}

/** Runs the Python library's verify_webhook (packages/python) with python3 on one delivery: the event, or the refusal's reason. */
export function pythonLibraryVerifies(input: {
  secret: string;
  headers: IncomingHttpHeaders;
  raw: string;
  nowSeconds: number;
}): { ok: true; event: unknown } | { ok: false; reason: string } {
  const driver = `import json, sys
from profile_service import WebhookVerificationError, verify_webhook
args = json.loads(sys.stdin.read())
try:
    print(json.dumps({"ok": True, "event": verify_webhook(args["secret"], args["headers"], args["raw"].encode("utf-8"), now=args["now"])}))
except WebhookVerificationError as e:
    print(json.dumps({"ok": False, "reason": e.reason}))
`;
  const headers = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const run = spawnSync("python3", ["-c", driver], {
    input: JSON.stringify({ secret: input.secret, headers, raw: input.raw, now: input.nowSeconds }),
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: path.resolve("packages/python"), PYTHONDONTWRITEBYTECODE: "1" },
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { ok: true; event: unknown } | { ok: false; reason: string };
}
