// The developer dashboard's usage chart on its development page (/dev/usage-chart): drawn at 360 px and
// on a desktop without sideways scrolling, no serious or critical axe-core violation, the drawing hidden
// from screen readers and the same days readable as a table. Screenshots go to e2e/screenshots.
import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll, noSeriousViolations, reviewShot } from "./support/pages";

test("the usage chart draws a month, and says it as a table", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/dev/usage-chart");
  const live = page.getByRole("figure", { name: "Live requests per day" });
  await expect(live).toBeVisible();
  await expect(live.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(live).toHaveAccessibleDescription(/^[\d,]+ requests from 1 Jun to 30 Jun, [\d,]+ of them errors \([\d.]+%\)\.$/);
  const table = live.getByRole("table", { name: /Live requests per day: requests, errors and error rate per day/ });
  await expect(table.getByRole("row")).toHaveCount(31);
  await expect(table.getByRole("rowheader", { name: "18 Jun" })).toBeAttached();
  await expect(page.getByRole("figure", { name: "Test requests per day" })).toHaveAccessibleDescription("No requests from 1 Jun to 30 Jun.");

  for (const [label, size] of [
    ["360", { width: 360, height: 780 }],
    ["desktop", { width: 1280, height: 860 }],
  ] as const) {
    await page.setViewportSize(size);
    await expect(live.locator(".recharts-bar-rectangle").first()).toBeVisible();
    await expectNoSidewaysScroll(page, `must not scroll sideways at ${label}`);
    await reviewShot(page, `usage-chart-${label}`);
  }

  await noSeriousViolations(page);
  // Nothing in the drawing takes the keyboard's focus: Tab goes from the page's links past the chart.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("[data-testid=usage-chart-drawing]") ?? null)).toBeNull();
});
