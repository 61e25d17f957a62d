// The example apps under examples/, run as a developer would run them, against the production server:
// the page with the sign-in button (its own server exchanges the code and reads the profile with the
// access token), the Next.js app signing in with Auth.js (a confidential OpenID Connect client), and
// the agent whose turns read, answer and commit, and still answer when the service cannot be reached.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { cpSync, readFileSync, rmSync } from "node:fs";
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

/**
 * Starts examples/nextjs-authjs with `next dev` and resolves once it is ready, with the function that
 * stops it. It runs from a copy under the run's data directory, removed when it stops: next dev serves
 * one directory once, so runs on other ports and a developer's own `next dev` of the example go on
 * side by side. The copy resolves its packages from the repository's node_modules, as the example does.
 */
async function startNextjsAuthjs(port: number, env: Record<string, string>): Promise<() => Promise<void>> {
  const dir = `${process.env.E2E_DATA_DIR}-nextjs-authjs-${port}`;
  cpSync("examples/nextjs-authjs", dir, { recursive: true, filter: (src) => !/(^|\/)(\.next|node_modules)$|\.tsbuildinfo$/.test(src) });
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "dev", dir, "--webpack"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: next dev runs the server in a child process, stopped with it.
    detached: true,
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes("Ready in")) resolve();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`next dev examples/nextjs-authjs exited with ${code}: ${output}`)));
  });
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The hosted flow as a new person (in the popup, or in the same tab): a pasted memory list, a phone number, the code from the outbox, the receipt. */
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
  const message = outbox
    .getByTestId("outbox-message")
    .filter({ has: outbox.getByTestId("outbox-last4").getByText(line, { exact: true }) })
    .first();
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

test("examples/nextjs-authjs: Auth.js signs the person in as a confidential client; the page shows the ID token's email_verified and the profile read with the access token", async ({
  page,
  baseURL,
}) => {
  // next dev compiles each route on its first request: the page, Auth.js's routes and the callback.
  test.setTimeout(180_000);
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const registered = await fetch(`${baseURL}/v1/sso/client`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ publishable_key: seed.publishable_key, redirect_uri: `${app}/api/auth/callback/profile-service`, token_endpoint_auth_method: "client_secret_basic" }),
  });
  expect(registered.status).toBeLessThan(300);
  const { client_id: clientId, client_secret: clientSecret } = (await registered.json()) as { client_id: string; client_secret: string };
  expect(clientSecret).toMatch(/^ocs_/);
  const stop = await startNextjsAuthjs(port, {
    SERVICE_URL: baseURL!,
    CLIENT_ID: clientId,
    CLIENT_SECRET: clientSecret,
    SECRET_KEY: seed.secret_key,
    AGENT: seed.agent,
    AUTH_SECRET: randomBytes(32).toString("base64"),
  });
  try {
    await page.goto(`${app}/`, { timeout: 120_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Basecamp");
    await page.getByRole("button", { name: "Sign in with Profile Service" }).click();
    await page.waitForURL(`${baseURL}/flow/**`, { timeout: 60_000 });
    await signInAsNewPerson(page);
    await page.waitForURL(`${app}/`, { timeout: 60_000 });

    await expect(page.getByRole("heading", { level: 2, name: /^Signed in as / })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("sub")).toHaveText(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The mailbox step was skipped: no verified address, so email_verified is false and no email is used.
    await expect(page.getByTestId("email-verified")).toHaveText("false");
    await expect(page.getByTestId("email")).toHaveText("none used (not verified)");
    await expect(page.getByTestId("summary")).toContainText(/Porto/);
    const facts = page.getByRole("list", { name: "What Basecamp knows about you" });
    await expect(facts).toContainText(/Porto/);
    await expect(facts).toContainText(/trail running/);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
    // The access token stays on the server: neither the page nor Auth.js's session answer carries it.
    expect(await page.content()).not.toMatch(/mcp_at_/);
    const session = await page.request.get(`${app}/api/auth/session`);
    expect(await session.text()).not.toMatch(/mcp_at_|access_token/);

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page.getByRole("button", { name: "Sign in with Profile Service" })).toBeVisible({ timeout: 30_000 });
  } finally {
    await stop();
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
