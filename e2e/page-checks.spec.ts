// The checks every page test relies on (e2e/support/pages.ts) catch what they are for.
import { expect, test } from "@playwright/test";
import { noSeriousViolations } from "./support/pages";

test("the accessibility check fails a serious violation in the page and in a same-origin frame", async ({ page }) => {
  await page.goto("/");
  await noSeriousViolations(page);
  // A button with no name is a critical violation (button-name).
  await page.evaluate(() => document.body.append(Object.assign(document.createElement("button"), { id: "unnamed" })));
  await expect(noSeriousViolations(page)).rejects.toThrow(/button-name: #unnamed/);

  await page.goto("/");
  await page.evaluate(async () => {
    const frame = Object.assign(document.createElement("iframe"), { srcdoc: '<main><button id="unnamed-in-frame"></button></main>', title: "A frame" });
    document.body.append(frame);
    await new Promise((resolve) => frame.addEventListener("load", resolve));
  });
  await expect(noSeriousViolations(page)).rejects.toThrow(/button-name: .*#unnamed-in-frame/);
});
