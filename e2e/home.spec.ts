// The service's own site: home and docs render, stay within a phone's width, and work from the keyboard.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, reviewShot } from "./support/pages";

const VIEWPORTS = [
  { name: "mobile", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

test("home page renders and links to the docs", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Profile Service/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Personal profiles for AI agents");
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("main")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Try the sandbox" })).toBeVisible();
  await expect(page.locator("#sandbox")).toContainText("/v1/sandbox/provision");

  await page.getByRole("main").getByRole("link", { name: "Read the docs" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page).toHaveTitle("Docs · Profile Service");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API conventions");
  await expect(page.getByRole("main")).toContainText("docs/api.md");
  await expect(page.getByRole("link", { name: "Docs" }).first()).toHaveAttribute("aria-current", "page");
});

test("on a phone, Menu opens every destination of the header; Escape, or a choice, closes it", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/docs");
  const nav = page.getByRole("navigation", { name: "Primary" });
  const link = (name: string) => nav.getByRole("link", { name, exact: true });
  await expect(link("Docs")).toBeHidden();
  await nav.getByText("Menu").click();
  for (const name of ["Overview", "Docs", "Sandbox", "Account", "Dashboard"]) await expect(link(name)).toBeVisible();
  await expect(link("Docs")).toHaveAttribute("aria-current", "page");
  await reviewShot(page, "site-menu-360", { fullPage: false });
  await page.keyboard.press("Escape");
  await expect(link("Overview")).toBeHidden();
  await expect(nav.getByText("Menu")).toBeFocused();
  // From the keyboard: Enter opens it again; a link on another page closes it on arrival.
  await page.keyboard.press("Enter");
  await link("Sandbox").click();
  await expect(page).toHaveURL(/\/#sandbox$/);
  await expect(page.getByRole("heading", { name: "Try the sandbox" })).toBeInViewport();
  await expect(link("Sandbox")).toBeHidden();
});

test("at 390 px the home page's code is all in sight: its lines wrap instead of running past the edge", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const blocks = page.getByRole("main").locator("pre");
  expect(await blocks.count()).toBeGreaterThan(1);
  for (const block of await blocks.all()) {
    const { scrollWidth, clientWidth } = await block.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth, (await block.getAttribute("aria-label")) ?? "code block").toBeLessThanOrEqual(clientWidth);
  }
});

for (const vp of VIEWPORTS) {
  test(`home and docs at ${vp.name} (${vp.width}×${vp.height}): a heading, nothing sideways; full-page screenshots for review`, async ({ page }) => {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    for (const [route, name] of [
      ["/", "home"],
      ["/docs", "docs"],
      ["/docs/api", "docs-api"],
      ["/docs/getting-started", "docs-getting-started"],
      ["/docs/client", "docs-client"],
      ["/docs/mcp-sessions", "docs-mcp-sessions"],
      ["/docs/webhooks", "docs-webhooks"],
    ] as const) {
      await page.goto(route);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await reviewShot(page, `${name}-${vp.name}`);
    }
  });
}

test("the API reference lists every route from /openapi.json, which a browser app may fetch", async ({ page, request }) => {
  const res = await request.get("/openapi.json", { headers: { Origin: "https://docs.example" } });
  expect(res.status()).toBe(200);
  expect(res.headers()["access-control-allow-origin"]).toBe("*");
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { summary: string }>> };
  expect(doc.openapi).toBe("3.1.0");
  await page.goto("/docs");
  await page.getByRole("main").getByRole("link", { name: "API reference" }).first().click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const op of Object.values(ops)) await expect(page.getByText(op.summary, { exact: true }).first(), path).toBeVisible();
  }
  await expect(page.getByRole("heading", { level: 3, name: /post \/v1\/profile\/remember/i })).toBeVisible();
});

test("GET /api/health answers 200 ok", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ status: "ok" });
});

test("Tab reaches the skip link first, and it is visible and works", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  // sr-only keeps a 1×1 px box, which counts as "visible"; a focused skip link must be readable.
  const box = await skip.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(40);
  expect(box?.height ?? 0).toBeGreaterThan(20);

  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  await expect(page.getByRole("main")).toBeFocused();
});

test("an error's docUrl leads to its row of the client library reference, and the docs pages link to each other", async ({ page }) => {
  await page.goto("/docs/client#error-rate-limited");
  const row = page.locator("#error-rate-limited");
  await expect(row.getByRole("rowheader")).toHaveText("RATE_LIMITED");
  await expect(row).toContainText("rate_limited");
  await expect(page.locator("#ref-ProfileClient")).toContainText("read(input: WithUser<ReadQuery>): Promise<Profile>");
  const docs = page.getByRole("navigation", { name: "Docs pages" });
  await expect(docs.getByRole("link", { name: "Client library" })).toHaveAttribute("aria-current", "page");
  await docs.getByRole("link", { name: "Getting started" }).click();
  await expect(page).toHaveURL(/\/docs\/getting-started$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Getting started");
});
