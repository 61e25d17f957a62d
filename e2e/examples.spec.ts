// The example apps under examples/, run as a developer would run them, against the production server:
// the page with the sign-in button (its own server exchanges the code and reads the profile with the
// access token), and the agent whose turns read, answer and commit, and still answer when the service
// cannot be reached.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as {
  secret_key: string;
  publishable_key: string;
  agent: string;
  agent_name: string;
};
const run = promisify(execFile);
const TSX = "node_modules/tsx/dist/cli.mjs";

/** A port nothing listens on now (so also an address that refuses connections). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts examples/button-page/server.mjs and resolves once it says it is listening. */
async function startButtonPage(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["examples/button-page/server.mjs"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += String(chunk)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => String(chunk).includes("example on http://localhost:") && resolve());
    child.on("exit", (code) => reject(new Error(`examples/button-page/server.mjs exited with ${code}: ${errors}`)));
  });
  return child;
}

/** The hosted flow as a new person in the popup: a pasted memory list, a phone number, the code from the outbox, the receipt. */
async function signInAsNewPerson(flow: Page) {
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await flow.getByRole("link", { name: /ChatGPT/ }).click();
  await flow.getByLabel("Paste ChatGPT’s answer").fill("- I live in Porto\n- I love trail running");
  await flow.getByRole("button", { name: "Preview memories" }).click();
  await flow.getByRole("button", { name: "Keep 2 memories" }).click();
  await flow.getByRole("button", { name: "Continue", exact: true }).click();
  const line = String(2000 + Math.floor(Math.random() * 7000));
  await flow.getByLabel("Country").selectOption("US");
  await flow.getByLabel("Mobile number").fill(`415 555 ${line}`);
  await flow.getByRole("button", { name: "Text me a code" }).click();
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  const outbox = await flow.context().newPage();
  await outbox.goto("/dev/outbox");
  const message = outbox.getByTestId("outbox-message").filter({ has: outbox.getByTestId("outbox-last4").getByText(line, { exact: true }) }).first();
  const code = (await message.getByTestId("outbox-body").innerText()).match(/^(\d{6})/)![1]!;
  await outbox.close();
  await flow.getByLabel("Six-digit code").fill(code);
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText("Add your mailbox");
  await flow.getByRole("button", { name: "Not now" }).click();
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  await flow.getByRole("button", { name: `Return to ${seed.agent_name}` }).click();
}

test("examples/button-page: the person signs in in the popup and the page shows their profile, read by its server with the access token", async ({ page, context, baseURL }) => {
  const port = await freePort();
  const registered = await fetch(`${baseURL}/v1/sso/client`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ publishable_key: seed.publishable_key, redirect_uri: `http://localhost:${port}/callback` }),
  });
  expect(registered.status).toBeLessThan(300);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const server = await startButtonPage({ SERVICE_URL: baseURL!, CLIENT_ID: clientId, SECRET_KEY: seed.secret_key, AGENT: seed.agent, PORT: String(port) });
  try {
    await page.goto(`http://localhost:${port}/`);
    const popupOpened = context.waitForEvent("page");
    await page.getByRole("button", { name: "Sign in with Profile Service" }).click();
    const popup = await popupOpened;
    await signInAsNewPerson(popup);
    await popup.waitForEvent("close");
    await expect(page.locator("#profile")).toBeVisible();
    await expect(page.locator("#name")).toContainText("Signed in:");
    await expect(page.locator("#summary")).toContainText(/Porto/);
    await expect(page.locator("#facts")).toContainText(/Porto/);
    await expect(page.locator("#facts")).toContainText(/trail running/);
    await expect(page.locator("#error")).toHaveText("");
    expect(await page.content()).not.toMatch(/mcp_at_/);
  } finally {
    server.kill();
  }
});

test("examples/agent-turn: each turn reads the profile and commits through the MCP session; an unreachable service still gets answers", async ({ request, baseURL }) => {
  const provisioned = await request.post("/v1/sandbox/provision");
  expect(provisioned.status()).toBe(201);
  const sandbox = await provisioned.json();
  const env = { ...process.env, SECRET_KEY: sandbox.secret_key, AGENT: sandbox.agent.handle, USER_ID: sandbox.user.external_id };

  const live = await run(process.execPath, [TSX, "examples/agent-turn/agent.ts"], { env: { ...env, SERVICE_URL: baseURL! } });
  expect(live.stdout).toContain("mcp session: ok (linked: true)");
  expect(live.stdout.match(/^read: ok/gm)).toHaveLength(2);
  expect(live.stdout.match(/^commit: ok \(\S+, \w+\)/gm)).toHaveLength(2);
  expect(live.stderr).not.toContain("the turn goes on without it");

  const unreachable = `http://127.0.0.1:${await freePort()}`;
  const offline = await run(process.execPath, [TSX, "examples/agent-turn/agent.ts"], { env: { ...env, SERVICE_URL: unreachable } });
  expect(offline.stdout).toContain("mcp session: unavailable");
  expect(offline.stdout.match(/^read: unavailable/gm)).toHaveLength(2);
  expect(offline.stdout.match(/^answer: You asked/gm)).toHaveLength(2);
  expect(offline.stdout.match(/^commit: unavailable/gm)).toHaveLength(2);
  expect(offline.stderr).toContain("tool service_profile_read failed; the turn goes on without it");
  expect(offline.stderr).toContain("tool service_profile_commit failed; the turn goes on without it");
});
