// Webhooks on the dashboard in Chromium, against the production server and a receiver of the developer's
// (a node:http server): a new developer adds a test-plane endpoint (its secret shown once), sends a test
// event that the server's own worker delivers signed, sees it delivered in the log, shows the secret
// again, sends the delivery again under the same webhook-id, and disables the endpoint.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { signUpDeveloper } from "./support/dashboard";
import { noSeriousViolations, PHONE, shoot } from "./support/pages";

test.use({ viewport: PHONE });

let server: Server;
let port = 0;
const received: Array<{ headers: IncomingHttpHeaders; raw: string }> = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, raw });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The Standard Webhooks check, as docs/webhooks.md describes it. */
function signedBy(secret: string, got: { headers: IncomingHttpHeaders; raw: string }): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key)
    .update(`${String(got.headers["webhook-id"])}.${String(got.headers["webhook-timestamp"])}.${got.raw}`)
    .digest("base64");
  return String(got.headers["webhook-signature"])
    .split(" ")
    .some((entry) => entry === `v1,${expected}`);
}

test("a developer adds an endpoint, and a test event reaches it signed, is logged and is sent again", async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await signUpDeveloper(page, `webhooks-${stamp}@example.com`, "Lighthouse Labs");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
  await page.getByRole("link", { name: "Test", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Add a test endpoint" })).toBeVisible();
  await expect(page.getByText("No test endpoints yet.")).toBeVisible();
  await noSeriousViolations(page);

  const url = `http://localhost:${port}/hook`;
  await page.getByLabel("URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = await page.getByTestId("secret-value").innerText();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const row = page.getByTestId("webhook-endpoint-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(url);
  await expect(row).toContainText("All events");

  await row.getByRole("button", { name: /Send test event/ }).click();
  await expect(page.getByText(/Test event evt_\w+ queued/)).toBeVisible();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
  const first = received[0]!;
  expect(signedBy(secret, first)).toBe(true);
  expect(JSON.parse(first.raw)).toMatchObject({ type: "webhook.test", livemode: false, id: first.headers["webhook-id"] });

  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("webhook-delivery-row").first()).toContainText("Delivered", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("webhook-delivery-row").first()).toContainText("HTTP 204");
  await noSeriousViolations(page);
  await shoot(page, "webhooks-01-delivered");

  await page
    .getByTestId("webhook-endpoint-row")
    .getByRole("button", { name: /Show secret/ })
    .click();
  await expect(page.getByTestId("secret-value")).toHaveText(secret);

  await page
    .getByTestId("webhook-delivery-row")
    .first()
    .getByRole("button", { name: /Send again/ })
    .click();
  await expect(page.getByText(/queued again, with the same webhook-id/)).toBeVisible();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
  expect(received[1]!.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
  expect(received[1]!.raw).toBe(first.raw);

  await page
    .getByTestId("webhook-endpoint-row")
    .getByRole("button", { name: /^Disable/ })
    .click();
  await expect(page.getByText(/is disabled: it receives nothing until you enable it/)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("webhook-endpoint-row")).toContainText("Disabled");
  await expect(page.getByTestId("webhook-endpoint-row").getByRole("button", { name: /Send test event/ })).toHaveCount(0);
});

test("the docs page /docs/webhooks lists every event type the service sends, and reads on a phone and a desktop", async ({ page, request }) => {
  const { WEBHOOK_EVENT_TYPES } = await import("../lib/webhooks/catalogue");
  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    await page.goto("/docs/webhooks");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
    await expect(page.getByRole("navigation").getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
    const events = page.getByRole(viewport.width < 640 ? "list" : "region", { name: "Event types" });
    for (const type of WEBHOOK_EVENT_TYPES) await expect(events.getByText(type, { exact: true })).toBeVisible();
    // The command adds an endpoint at this service's own address.
    await expect(page.getByTestId("webhooks-create")).toContainText(`${new URL(page.url()).origin}/v1/webhooks/endpoints`);
    await noSeriousViolations(page);
  }
  await shoot(page, "docs-webhooks");
  expect((await request.get("/docs/webhooks")).status()).toBe(200);
});
