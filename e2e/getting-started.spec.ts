// The getting-started page followed as a new developer follows it: its commands run in a shell as
// written, its server.mjs saved from the page and started with its command, then the sandbox person signs
// in through the button with the number and code the page gives. Only the page's port is swapped for a
// free one, so parallel runs do not meet.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";

const sh = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The text of one of the page's code blocks. */
async function block(page: Page, id: string): Promise<string> {
  return page.getByTestId(id).innerText();
}

test("a new developer follows the getting-started page from sandbox keys to a signed-in person and a profile read", async ({ page, context }) => {
  test.setTimeout(120_000);
  const port = String(await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), "getting-started-"));
  let server: ChildProcess | undefined;
  try {
    await page.goto("/docs/getting-started");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Getting started");
    const onPort = (command: string) => command.replaceAll(":4000", `:${port}`).replaceAll("PORT=4000", `PORT=${port}`);

    // 1. Test keys: the page's curl command, and the three values it says to keep.
    const provisioned = JSON.parse((await sh("sh", ["-c", await block(page, "step-provision")])).stdout) as {
      secret_key: string;
      publishable_key: string;
      agent: { handle: string };
    };
    expect(provisioned.secret_key).toMatch(/^sk_test_/);
    const shell = { ...process.env, SK: provisioned.secret_key, PK: provisioned.publishable_key, AGENT: provisioned.agent.handle };

    // 2. The callback's client.
    const registered = JSON.parse((await sh("sh", ["-c", onPort(await block(page, "step-register"))], { env: shell })).stdout) as { client_id: string };
    expect(registered.client_id).toMatch(/^oc_/);

    // 3. server.mjs as shown, 4. started with the page's command.
    writeFileSync(path.join(dir, "server.mjs"), await block(page, "step-server"));
    const run = onPort(await block(page, "step-run"));
    expect(run).toContain("node server.mjs");
    // In a process group of its own: the shell's child (node server.mjs) stops with it.
    server = spawn("sh", ["-c", run], { cwd: dir, env: { ...shell, CLIENT_ID: registered.client_id }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let errors = "";
    server.stderr!.on("data", (chunk: Buffer) => (errors += String(chunk)));
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on("data", (chunk: Buffer) => String(chunk).includes(`http://localhost:${port}`) && resolve());
      server!.on("exit", (code) => reject(new Error(`server.mjs exited with ${code}: ${errors}`)));
    });

    // The sign-in, as the page's list describes it: each button it names, pressed by the words it gives.
    const said = await page.getByTestId("sign-in-steps").locator("strong").allInnerTexts();
    expect(said).toEqual(["Sign in with Profile Service", "Sign in", "Continue to Sandbox Agent", "Return to Sandbox Agent"]);
    const [button, signIn, proceed, back] = said;
    await page.goto(`http://localhost:${port}/`);
    const popupOpened = context.waitForEvent("page");
    await page.getByRole("button", { name: button, exact: true }).click();
    const popup = await popupOpened;
    await expect(popup.getByText("Already have a profile?")).toBeInViewport();
    await popup.getByRole("button", { name: signIn, exact: true }).click();
    await popup.getByLabel("Country").selectOption("US");
    await popup.getByLabel("Mobile number").fill("555 555 0100");
    await popup.getByRole("button", { name: "Text me a code" }).click();
    await popup.getByLabel("Six-digit code").fill("424242");
    await popup.getByRole("button", { name: proceed, exact: true }).click();
    await popup.getByRole("button", { name: back, exact: true }).click();

    await expect(page.getByRole("heading", { level: 2 })).toContainText("Signed in:");
    await expect(page.locator("#facts")).toContainText("Lisbon");
    await expect(page.getByRole("alert")).toHaveText("");
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the page's script tag names the script this service serves, with its integrity value", async ({ page, request }) => {
  await page.goto("/docs/getting-started");
  const tag = await block(page, "step-tag");
  const src = tag.match(/src="([^"]+)"/)![1]!;
  const integrity = tag.match(/integrity="([^"]+)"/)![1]!;
  const served = await request.get(src);
  expect(served.status()).toBe(200);
  const { createHash } = await import("node:crypto");
  expect(
    `sha384-${createHash("sha384")
      .update(await served.body())
      .digest("base64")}`,
  ).toBe(integrity);
});
