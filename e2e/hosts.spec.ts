// MCP_URL and SIGN_IN_URL on host names of their own, in a real browser (project "separate-hosts" in
// playwright.config.ts maps mcp.localtest and signin.localtest to this machine). This file starts its
// own production server (scripts/server.mjs) on a fresh embedded database with those addresses: a
// connect link opened on the MCP host continues on BASE_URL, so the flow's cookie and the person's
// session belong to the host the flow is served from. Also: a ~15 MB conversations.json uploads on the
// import screen (the screen advertises 20 MB).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SERVER_NODE_FLAGS } from "../scripts/node-flags.mjs";

const port = Number(process.env.E2E_PORT ?? 3100) + 10;
const base = `http://localhost:${port}`;
const mcpUrl = `http://mcp.localtest:${port}`;
const signInUrl = `http://signin.localtest:${port}`;
const dataDir = path.resolve(".test-data", `e2e-hosts-${Date.now()}`);
let server: ChildProcess;
let seed: { secret_key: string; agent: string; agent_name: string };

test.describe.configure({ mode: "serial" });
test.use({ baseURL: base });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  seed = JSON.parse(execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "e2e/support/seed.ts", dataDir, "developer"], { encoding: "utf8" }));
  server = spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      BASE_URL: base,
      MCP_URL: mcpUrl,
      SIGN_IN_URL: signInUrl,
    },
  });
  for (let i = 0; ; i++) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 200 || server.exitCode !== null) throw new Error("the separate-hosts server did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
});

function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415555${line}`, national: `415 555 ${line}` };
}

async function phoneAndCode(page: Page) {
  const phone = freshPhone();
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(phone.national);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  const outbox = await page.context().newPage();
  await outbox.goto(`${base}/dev/outbox`);
  const message = outbox
    .getByTestId("outbox-message")
    .filter({ has: outbox.getByTestId("outbox-last4").getByText(phone.e164.slice(-4), { exact: true }) })
    .first();
  const code = (await message.getByTestId("outbox-body").innerText()).match(/^(\d{6})/)![1]!;
  await outbox.close();
  await page.getByLabel("Six-digit code").focus();
  await page.evaluate((c) => {
    const el = document.getElementById("code") as HTMLInputElement;
    el.value = c;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, code);
}

test("a connect link opened on MCP_URL's own host continues on BASE_URL, where the flow's cookie works to the end", async ({ page, request }) => {
  const minted = await request.post(`${base}/v1/profile/connect`, {
    headers: { "X-API-Key": seed.secret_key, "X-Agent": seed.agent, "X-User-Id": `hosts-${Date.now()}` },
    data: { capability: "gmail:send" },
  });
  expect(minted.status()).toBe(200);
  const link = (await minted.json()) as { connect_url: string };
  expect(link.connect_url.startsWith(`${mcpUrl}/connect/mcc_`)).toBe(true);

  await page.goto(link.connect_url);
  // The flow is served on the service's host, and its cookie was set there.
  await expect(page).toHaveURL(new RegExp(`^${base}/flow/[A-Za-z0-9]{32}$`));
  const cookies = await page.context().cookies(page.url());
  expect(cookies.some((c) => c.name.startsWith("service_flow_") && c.domain === "localhost")).toBe(true);

  await phoneAndCode(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Allow ${seed.agent_name} to send e-mail from your Gmail?`);
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  const id = link.connect_url.split("/").pop();
  expect((await (await request.get(`${base}/personal-mcp/connect/${id}/status`)).json()).status).toBe("approved");
});

test("an agent's sign_in_url on SIGN_IN_URL's own host opens the flow on BASE_URL, with its state kept", async ({ page, request }) => {
  const agents = (await (await request.get(`${base}/v1/agents`, { headers: { "X-API-Key": seed.secret_key } })).json()) as {
    agents: Array<{ handle: string; sign_in_url: string }>;
  };
  const signIn = agents.agents.find((a) => a.handle === seed.agent)!.sign_in_url;
  expect(signIn.startsWith(`${signInUrl}/`)).toBe(true);
  await page.goto(`${signIn}?state=hosts-1&display_name=Trail%20Desk`);
  await expect(page).toHaveURL(new RegExp(`^${base}/flow/[A-Za-z0-9]{32}$`));
  const cookies = await page.context().cookies(page.url());
  expect(cookies.some((c) => c.name.startsWith("service_flow_") && c.domain === "localhost")).toBe(true);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bring your profile to Trail Desk");
});

test("the MCP host serves only its mount: an unknown link there is the notice page, framing refused", async ({ page }) => {
  const res = await page.goto(`${mcpUrl}/connect/mcc_${"A".repeat(24)}`);
  // Moved to BASE_URL first, then answered there.
  expect(page.url()).toBe(`${base}/personal-mcp/connect/mcc_${"A".repeat(24)}`);
  expect(res!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
  expect(res!.headers()["x-frame-options"]).toBe("DENY");
  const nul = await page.goto(`${mcpUrl}/connect/mcc_%00`);
  expect(nul!.status()).toBe(404);
});

test("a 15 MB conversations.json uploads on the import screen (the screen advertises 20 MB)", async ({ page }) => {
  test.setTimeout(120_000);
  const conversations = JSON.parse(readFileSync("tests/fixtures/exports/claude-conversations.json", "utf8")) as Array<Record<string, unknown>>;
  // Long assistant answers (each under the parsers' per-message cap) make up the size.
  const answer = "The assistant wrote a long answer here. ".repeat(400);
  const padded = [
    ...conversations,
    ...Array.from({ length: 10 }, (_, c) => ({
      uuid: `0d3b2f5e-7c1a-4e8b-9f20-${String(c).padStart(12, "0")}`,
      name: `Long answers ${c}`,
      created_at: "2024-07-01T07:15:42.118934Z",
      updated_at: "2024-07-01T07:15:42.118934Z",
      chat_messages: Array.from({ length: 100 }, (_, m) => ({
        uuid: `11111111-aaaa-4bbb-${String(c).padStart(4, "0")}-${String(m).padStart(12, "0")}`,
        text: answer,
        sender: "assistant",
        created_at: "2024-07-01T07:15:42.118934Z",
      })),
    })),
  ];
  const buffer = Buffer.from(JSON.stringify(padded));
  expect(buffer.byteLength).toBeGreaterThan(15 * 1024 * 1024);
  expect(buffer.byteLength).toBeLessThan(20 * 1024 * 1024);

  await page.goto(`${base}/sign-up`);
  await page.getByRole("link", { name: /Claude/ }).click();
  await page.getByLabel(/Or upload conversations\.json from your Claude export/).setInputFiles({ name: "conversations.json", mimeType: "application/json", buffer });
  await page.getByRole("button", { name: "Preview memories" }).click();
  await expect(page.getByText(/memor(y|ies) from Claude will be saved/)).toBeVisible({ timeout: 90_000 });
});
