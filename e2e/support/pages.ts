// What the browser tests check on every page a person or developer sees: no serious or critical
// axe-core violation, nothing scrolling sideways, screenshots at a phone's width and a desktop's
// (written to e2e/screenshots for review, outside CI), and reaching an element from the keyboard.
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import axe, { type AxeResults } from "axe-core";
import { expect, type Locator, type Page } from "@playwright/test";

const SHOTS = path.resolve("e2e/screenshots");
// Written for a person to look at; a CI run keeps nothing it writes, so there it checks the widths only.
const WRITE_SHOTS = !process.env.CI || process.env.E2E_SCREENSHOTS === "1";
export const PHONE = { width: 360, height: 780 } as const;
const DESKTOP = { width: 1280, height: 860 } as const;

interface Width {
  /** In the file name: `<name>-<label>.png`. */
  label: string;
  width: number;
  height: number;
}

export interface ShootOptions {
  /** The narrow width, and the one the page is left at: 360 × 780 unless given. */
  phone?: Width;
  /** The wide width: 1280 × 860 unless given. */
  desktop?: Width;
  /** Milliseconds to wait after each resize, for a page that follows its new width itself (a framed card). */
  settle?: number;
}

/**
 * At a phone's width and a desktop's: fails when the page scrolls sideways, and writes the full-page
 * screenshots `<name>-<label>.png` for review ({@link reviewShot}). The page is left at the phone's width.
 */
export async function shoot(page: Page, name: string, options: ShootOptions = {}) {
  const phone = options.phone ?? { label: "360", ...PHONE };
  const desktop = options.desktop ?? { label: "desktop", ...DESKTOP };
  for (const { label, width, height } of [phone, desktop]) {
    await page.setViewportSize({ width, height });
    if (options.settle) await page.waitForTimeout(options.settle);
    await expectNoSidewaysScroll(page, `${name} must not scroll sideways at ${label}`);
    await reviewShot(page, `${name}-${label}`);
  }
  await page.setViewportSize({ width: phone.width, height: phone.height });
}

/** Fails when the page is wider than its window. */
export async function expectNoSidewaysScroll(page: Page, message = "the page must not scroll sideways") {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, message).toBeLessThanOrEqual(clientWidth);
}

/**
 * `e2e/screenshots/<name>.png`, for a person to look at: a page whole (or only what is in view, with
 * `fullPage: false`), or one element. Written outside CI only (`E2E_SCREENSHOTS=1` writes them there
 * too): a CI run keeps nothing it writes, and each full-page screenshot costs the browser a render.
 */
export async function reviewShot(target: Page | Locator, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  if (!WRITE_SHOTS) return;
  const file = path.join(SHOTS, `${name}.png`);
  await ("goto" in target ? target.screenshot({ path: file, fullPage }) : target.screenshot({ path: file }));
}

export async function noSeriousViolations(page: Page) {
  // The title arrives with the page's metadata, after a client-side navigation's content.
  await expect(page).toHaveTitle(/\S/);
  // Where every frame shares the page's origin, axe.run checks them all in the page itself (axe's
  // legacy mode: the same frames and rules, about a second less per check on a loaded machine than
  // the default, which opens a blank page to merge per-frame results); a cross-origin frame (a
  // connect card on a developer's page) needs the default.
  // Colours are checked as they settle: a button back from its pending state, still fading between
  // its disabled and its own colours, would fail color-contrast half-way. Endless animations (a
  // spinner) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const origin = new URL(page.url()).origin;
  const sameOrigin = page.frames().every((frame) => frame.url().startsWith("about:") || new URL(frame.url()).origin === origin);
  const { violations } = sameOrigin ? await axeInPage(page) : await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const AXE_CONFIGURE = `axe.configure({ allowedOrigins: ["<same_origin>"], branding: { application: "playwright" } })`;

/**
 * axe.run in the page over every frame, violations only (the passing nodes' details are not
 * collected). axe-core's source (about 550 KB) is evaluated in a frame once per document, where
 * @axe-core/playwright's legacy mode evaluates it twice on every check; a page checked at two widths
 * loads it once. Each run builds its own view of the DOM, so a check after a resize sees the page as
 * it is then.
 */
async function axeInPage(page: Page): Promise<AxeResults> {
  for (const frame of page.frames()) {
    const main = frame === page.mainFrame();
    try {
      const loaded = await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function");
      if (!loaded) {
        await frame.evaluate(axe.source);
        await frame.evaluate(AXE_CONFIGURE);
      }
    } catch (e) {
      // A child frame that went away while it was checked is left out, as axe's own injection does.
      if (main) throw e;
    }
  }
  return page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] }));
}

/** Presses Tab until the element has the focus: it is reachable from the keyboard, in order. */
export async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`not reached with Tab: ${target.toString()}`);
}
