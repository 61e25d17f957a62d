// Hosted sign-in links end to end, in Chromium, with a developer's server written here the way the
// docs tell a developer to write one (docs/sign-in.md): it registers its return destination, sends the
// browser to the agent's sign_in_url, receives the code, exchanges it on the server, reads the profile
// with the agent token and validates it. Then a text-back link: a message line, a message URL, the
// flow in the browser, and the signed completion callback the server verifies.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; agent: string; agent_name: string };
const MEMORY_LIST = ["- I live in Porto", "- I prefer aisle seats"].join("\n");

test.use({ viewport: { width: 390, height: 820 } });

function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415555${line}`, national: `415 555 ${line}` };
}

/** A developer's server: its own pages, and its calls to the service with the secret key. */
class DeveloperServer {
  server!: Server;
  url = "";
  states = new Set<string>();
  callbacks: Array<{ headers: IncomingMessage["headers"]; raw: string }> = [];
  constructor(private readonly service: string) {}

  api(path: string, init: { method?: string; body?: unknown; bearer?: string } = {}) {
    return fetch(`${this.service}${path}`, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers: {
        "x-api-key": seed.secret_key,
        "x-agent": seed.agent,
        ...(init.body ? { "content-type": "application/json" } : {}),
        ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));
  }

  async start(signInUrl: () => Promise<string>) {
    this.server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? "/", this.url);
        const page = (status: number, title: string, text: string) => {
          res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
          res.end(`<!doctype html><title>${title}</title><h1>${title}</h1><p id="detail">${text}</p>`);
        };
        if (url.pathname === "/login") {
          const state = randomBytes(12).toString("hex");
          this.states.add(state);
          const to = new URL(await signInUrl());
          to.searchParams.set("return_to", `${this.url}/signed-in`);
          to.searchParams.set("state", state);
          res.writeHead(302, { location: to.toString() }).end();
        } else if (url.pathname === "/signed-in") {
          const state = url.searchParams.get("state") ?? "";
          if (url.searchParams.get("error")) return page(200, "Not signed in", url.searchParams.get("error")!);
          if (!this.states.has(state)) return page(400, "Unknown state", state);
          const exchanged = await this.api("/v1/auth/sign-in/exchange", { body: { code: url.searchParams.get("code") } });
          // A replayed URL (reload, Back): the person is already signed in.
          if (exchanged.body.error?.code === "code_already_used") return page(200, "Already signed in", "reload");
          if (exchanged.status !== 200) return page(502, "Exchange failed", JSON.stringify(exchanged.body));
          const profile = await this.api("/v1/profile", { bearer: exchanged.body.token });
          const valid = await this.api("/v1/auth/sign-in/validate", { body: { token: exchanged.body.token } });
          page(
            200,
            "Signed in",
            JSON.stringify({
              userId: exchanged.body.userId,
              approved: exchanged.body.approved,
              valid: valid.body.valid,
              linked: profile.body.linked,
              identity: profile.body.identity ?? null,
            }),
          );
        } else if (url.pathname === "/complete" && req.method === "POST") {
          const chunks: Buffer[] = [];
          for await (const c of req) chunks.push(c as Buffer);
          this.callbacks.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
          res.writeHead(204).end();
        } else page(404, "Not found", url.pathname);
      })();
    });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** The signature check a developer writes from the docs: HMAC-SHA256 over "<t>.<body>", within five minutes. */
function verifySignature(secret: string, header: string, raw: string): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
  const t = Number(parts.t);
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > 300 || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${parts.t}.${raw}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function codeFromOutbox(page: Page, last4: string): Promise<string> {
  const outbox = await page.context().newPage();
  await outbox.goto("/dev/outbox");
  const message = outbox
    .getByTestId("outbox-message")
    .filter({ has: outbox.getByTestId("outbox-last4").getByText(last4, { exact: true }) })
    .first();
  const body = await message.getByTestId("outbox-body").innerText();
  await outbox.close();
  return body.match(/^(\d{6})/)![1]!;
}

/** Import a pasted list, then phone and code: the receipt. */
async function walkFlow(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await page.getByRole("link", { name: /ChatGPT/ }).click();
  await page.getByLabel("Paste ChatGPT’s answer").fill(MEMORY_LIST);
  await page.getByRole("button", { name: "Preview memories" }).click();
  await page.getByRole("button", { name: "Keep 2 memories" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const phone = freshPhone();
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(phone.national);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  const code = await codeFromOutbox(page, phone.e164.slice(-4));
  await page.getByLabel("Six-digit code").fill(code);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
}

let dev: DeveloperServer;
test.beforeAll(async ({ baseURL }) => {
  dev = new DeveloperServer(baseURL!);
  await dev.start(async () => {
    const agents = await dev.api("/v1/agents");
    return (agents.body.agents as Array<{ handle: string; sign_in_url: string }>).find((a) => a.handle === seed.agent)!.sign_in_url;
  });
  // Registration is idempotent: a developer's server may do it at every start.
  for (const returnTo of [`${dev.url}/signed-in`, `${dev.url}/complete`, `${dev.url}/signed-in`]) {
    const res = await dev.api("/v1/auth/sign-in/return-destinations", { body: { return_to: returnTo } });
    expect([200, 201]).toContain(res.status);
  }
});
test.afterAll(() => dev.close());

test("a sign-in link: the developer's server receives a code, exchanges it, reads the profile and validates the token", async ({ page }) => {
  await page.goto(`${dev.url}/login`);
  await walkFlow(page);
  await page.getByRole("button", { name: `Return to ${seed.agent_name}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
  const result = JSON.parse(await page.locator("#detail").innerText()) as {
    userId: string;
    approved: boolean;
    valid: boolean;
    linked: boolean;
    identity: { location?: string } | null;
  };
  expect(result).toMatchObject({ approved: true, valid: true, linked: true });
  expect(result.userId).toMatch(/^[0-9a-f-]{36}$/);
  // The code is single use: a reload of the callback is "already signed in".
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Already signed in");
});

// The way-in table's sign-in link rows, in the browser: each link opens on its first screen.
const WAY_IN_ROWS: Array<[string, string, string]> = [
  ["a plain link", "", `Bring your profile to ${seed.agent_name}`],
  ["connectors naming one app", "connectors=calendar", "Connect Google Calendar"],
  ["connectors ['gmail'] with required ['email']", "connectors=gmail&required=email", "Connect Gmail"],
  ["one app and a mailbox it does not meet", "connectors=drive&required=email", `${seed.agent_name} asks for your mailbox`],
  ["two connectors", "connectors=gmail,notion", `Bring your profile to ${seed.agent_name}`],
  ["outlook, never a sign-in-link connector", "connectors=outlook", `Bring your profile to ${seed.agent_name}`],
  ["connectors only sheets (the older connect page)", "connectors=sheets&required=email", "Save it to your profile"],
];

test("each sign-in link row of the way-in table opens on its first screen", async ({ page }) => {
  const agents = await dev.api("/v1/agents");
  const signIn = (agents.body.agents as Array<{ handle: string; sign_in_url: string }>).find((a) => a.handle === seed.agent)!.sign_in_url;
  for (const [row, query, heading] of WAY_IN_ROWS) {
    await page.goto(`${signIn}?${query}`);
    await expect(page.getByRole("heading", { level: 1 }), row).toHaveText(heading);
  }
  // A text-back link with reason signin opens on the import screen too.
  const line = freshPhone();
  await dev.api("/v1/auth/sign-in/message-lines", { body: { phone: line.e164 } });
  const made = await dev.api("/v1/auth/sign-in/message-url", { body: { reason: "signin", agentPhone: line.e164 } });
  await page.goto(made.body.url as string);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  // Changed on the way, it opens nothing.
  const forged = new URL(made.body.url as string);
  forged.searchParams.set("journey", "someone-else");
  const refused = await page.goto(forged.toString());
  expect(refused!.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This sign-in link cannot be used");
});

test("a sign-in link cancelled: the developer hears access_denied with its state", async ({ page }) => {
  await page.goto(`${dev.url}/login`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not signed in");
  await expect(page.locator("#detail")).toHaveText("access_denied");
});

test("a text-back link ends in a signed completion callback the developer verifies", async ({ page }) => {
  const line = freshPhone();
  expect((await dev.api("/v1/auth/sign-in/message-lines", { body: { channel: "sms", phone: line.e164, label: "Support line" } })).status).toBeLessThan(300);
  const made = await dev.api("/v1/auth/sign-in/message-url", {
    body: {
      reason: "signin",
      channel: "sms",
      agentPhone: line.e164,
      messageBody: "What's the weather in Porto?",
      messageCompleteUrl: `${dev.url}/complete`,
      journeyId: "journey-42",
    },
  });
  expect(made.status).toBe(200);
  expect(made.body).toMatchObject({ mode: "plain", reason: "signin", fallbackReason: "sender_proof_missing" });
  await page.goto(made.body.url as string);
  await walkFlow(page);
  await expect(page.getByText("Go back to your messages")).toBeVisible();
  await expect.poll(() => dev.callbacks.length, { timeout: 20_000 }).toBe(1);
  const { secret } = (await dev.api("/v1/auth/sign-in/callback-secret")).body as { secret: string };
  const [callback] = dev.callbacks;
  expect(verifySignature(secret, String(callback!.headers["service-signature"]), callback!.raw)).toBe(true);
  expect(verifySignature(secret, String(callback!.headers["service-signature"]), callback!.raw.replace("journey-42", "journey-43"))).toBe(false);
  const body = JSON.parse(callback!.raw) as { token: string; journey: string; userId: string };
  expect(body.journey).toBe("journey-42");
  const valid = await dev.api("/v1/auth/sign-in/validate", { body: { token: body.token } });
  expect(valid.body).toMatchObject({ valid: true, userId: body.userId, approved: true });
});
