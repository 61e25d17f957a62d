// The browser library installed from the running service as a developer installs it into an app built
// with a bundler: `npm install {BASE_URL}/sdk/v1/profile-service-browser-<version>.tgz` into a fresh
// project outside the repository; its types checked by tsc (strict) against the developer's TypeScript;
// the module imported in Node, as server rendering would (no DOM, no side effects); the developer's page
// and callback page bundled with esbuild; then, in Chromium, a person signs in through the bundled button.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { build } from "esbuild";
import { button, eventTypes, openPopup, recorded, signInAsNewPerson, startDeveloperSite, storedAttempts, type DeveloperSite, type SiteBundles } from "./support/sso-site";

const sh = promisify(execFile);
const browserPackage = JSON.parse(readFileSync(path.resolve("packages/browser/package.json"), "utf8")) as { name: string; version: string };
const TSC = path.resolve("node_modules/typescript/bin/tsc");

interface Listed {
  name: string;
  kind: string;
  package: string;
  version: string;
  url: string;
  integrity: string;
}

// The developer's code, in TypeScript. The page: the service's address, then the element. A page opened
// with ?unconfigured leaves the address out, as a developer who forgot configure() would.
const PAGE = `import { configure, defineServiceSsoButton, SSO_BUTTON_TAG } from "@profile-service/browser";

declare const SERVICE_URL: string;
if (!location.search.includes("unconfigured")) configure({ baseUrl: SERVICE_URL });
const defined: boolean = defineServiceSsoButton();
document.documentElement.dataset.defined = String(defined && customElements.get(SSO_BUTTON_TAG) !== undefined);
`;
const CALLBACK = `import { configure, handleSsoCallback } from "@profile-service/browser";

declare const SERVICE_URL: string;
configure({ baseUrl: SERVICE_URL });
const result = await handleSsoCallback({ exchangeUrl: "/exchange" });
document.getElementById("status")!.textContent = result && typeof result === "object" && !("error" in result) ? "Signed in" : "Sign-in failed";
`;
// Server rendering: the module imported where there is no window, document or customElements.
const SSR = `import * as browser from "@profile-service/browser";
console.log(JSON.stringify({ exports: Object.keys(browser).sort(), defined: browser.defineServiceSsoButton(), hasService: "Service" in globalThis }));
`;

// One worker installs and bundles once; the tests run in order after it.
test.describe.configure({ mode: "default" });

let dir: string;
let bundles: SiteBundles;
let site: DeveloperSite;

test.beforeAll(async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const index = (await (await request.get("/sdk/v1/index.json")).json()) as { files: Listed[] };
  const tarball = index.files.find((f) => f.kind === "npm" && f.package === "profile-service-browser" && f.version === browserPackage.version);
  expect(tarball, "npm run build packs the browser library into the directory /sdk/v1/ serves").toBeDefined();
  expect(tarball!.url).toBe(`${baseURL}/sdk/v1/profile-service-browser-${browserPackage.version}.tgz`);

  // The command the getting-started page gives.
  const docs = await browser.newPage({ baseURL });
  await docs.goto("/docs/getting-started");
  const command = await docs.getByTestId("step-install-browser").innerText();
  await docs.close();
  expect(command).toBe(`npm install ${tarball!.url}`);

  dir = mkdtempSync(path.join(tmpdir(), "browser-package-"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "trailhead-web", private: true, type: "module" }, null, 2));
  const started = performance.now();
  await sh("sh", ["-c", `${command} --no-audit --no-fund`], { cwd: dir });
  console.log(`npm install ${tarball!.name}: ${Math.round(performance.now() - started)} ms`);
  const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string; resolved?: string; integrity?: string }> };
  expect(
    lock.packages[`node_modules/${browserPackage.name}`],
    "the browser library changed under the same version: raise the version in packages/browser/package.json",
  ).toMatchObject({ version: browserPackage.version, resolved: tarball!.url, integrity: tarball!.integrity });

  writeFileSync(path.join(dir, "page.ts"), PAGE);
  writeFileSync(path.join(dir, "callback.ts"), CALLBACK);
  writeFileSync(path.join(dir, "ssr.mjs"), SSR);
  // The package's types, as the developer's own strict TypeScript sees them.
  await sh(
    process.execPath,
    [
      TSC,
      "--noEmit",
      "--strict",
      "--target",
      "es2022",
      "--module",
      "esnext",
      "--moduleResolution",
      "bundler",
      "--lib",
      "es2022,dom",
      "--skipLibCheck",
      "false",
      "page.ts",
      "callback.ts",
    ],
    { cwd: dir },
  ).catch((err: { stdout?: string }) => {
    throw new Error(`tsc found errors in the developer's code against the package's types:\n${err.stdout ?? JSON.stringify(err)}`);
  });
  // The developer's bundler: one ES module per page, the package resolved from the project's node_modules.
  const bundle = async (entry: string) => {
    const out = await build({
      entryPoints: [path.join(dir, entry)],
      absWorkingDir: dir,
      bundle: true,
      format: "esm",
      target: "es2022",
      write: false,
      define: { SERVICE_URL: JSON.stringify(baseURL) },
      logLevel: "silent",
    });
    return out.outputFiles[0]!.text;
  };
  bundles = { page: await bundle("page.ts"), callback: await bundle("callback.ts") };
  site = await startDeveloperSite(baseURL!, { bundles });
});

test.afterAll(async () => {
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the installed module imports in Node without a DOM: no global, no element, every export there", async () => {
  const { stdout } = await sh(process.execPath, ["ssr.mjs"], { cwd: dir });
  expect(JSON.parse(stdout)).toEqual({
    exports: [
      "NO_SERVICE_ADDRESS",
      "POPUP_BLOCKED",
      "POPUP_CLOSED",
      "RESULT_MESSAGE",
      "SIGN_IN_CANCELLED",
      "SSO_BUTTON_TAG",
      "SSO_EVENTS",
      "completeSso",
      "configure",
      "defineServiceSsoButton",
      "getSsoNonce",
      "getSsoPkce",
      "handleSsoCallback",
      "serviceBaseUrl",
      "signInWithPopup",
    ],
    defined: false,
    hasService: false,
  });
  // Only the developer's code and the package are in the bundle: no copy of the served script's globals.
  expect(bundles.page).not.toContain("window.Service");
});

test("a person signs in through the bundled button; the callback page's handleSsoCallback exchanges the code", async ({ page }) => {
  await page.goto(site.url);
  await expect(page.locator("html")).toHaveAttribute("data-defined", "true");
  expect(await page.evaluate(() => "Service" in window)).toBe(false);
  const popup = await openPopup(page, () => button(page).click());
  await signInAsNewPerson(popup);
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect.poll(() => eventTypes(page)).toEqual(["service:sso-start", "service:sso-open", "service:sso-authenticated", "service:sso-close"]);
  const result = (await recorded(page))[2]!.detail.result!;
  expect(result.aud).toBe(site.clientId);
  expect(result.sub).toMatch(/^[0-9a-f-]{36}$/);
  expect(await storedAttempts(page)).toEqual([]);
});

test("a page that never set the service's address: the click ends in an error saying so, and no window opens", async ({ page }) => {
  let opened = false;
  page.context().on("page", () => (opened = true));
  await page.goto(`${site.url}/?unconfigured`);
  await button(page).click();
  await expect.poll(() => eventTypes(page)).toEqual(["service:sso-start", "service:sso-error", "service:sso-close"]);
  expect((await recorded(page))[1]!.detail.message).toBe("The service's address is not set: call configure({ baseUrl }) or pass baseUrl.");
  expect(opened).toBe(false);
  await expect(button(page)).toHaveAttribute("aria-busy", "false");
});
