// Browser tests: Debian's Chromium against a production `next start` on a fresh embedded database.
// This file is tooling, not the service, so it reads process.env directly (lib/env.ts is the service's).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumMajor, findChromium } from "./e2e/support/chromium";
import { SERVER_NODE_FLAGS } from "./scripts/node-flags.mjs";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const googlePort = port + 5;
const githubPort = port + 6;

const chromium = findChromium();

/** Host names e2e/hosts.spec.ts gives MCP_URL and SIGN_IN_URL. */
export const SEPARATE_HOSTS = ["mcp.localtest", "signin.localtest"];

// Playwright loads this file again in each worker; the env var keeps one data directory per run.
process.env.E2E_DATA_DIR ??= path.resolve(".test-data", `e2e-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
// PGlite does not create missing parents of its data directory.
mkdirSync(path.dirname(dataDir), { recursive: true });

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  // The long journeys (import, phone, code, receipt, and a relying party's exchange, with screenshots at
  // two widths) take 20–30 s on a loaded 2-core machine running the server, the provider and two
  // browsers: each test gets 90 s, with margin, while each step keeps Playwright's own 5 s expectation.
  timeout: 90_000,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  // The screen gallery's baselines (e2e/screens.spec.ts), one directory per Chromium major version. A
  // renderer with none yet records its own, seen in review; one with baselines is compared against them.
  snapshotPathTemplate: `{testDir}/screens/chromium-${chromiumMajor(chromium)}/{arg}{ext}`,
  updateSnapshots: "missing",
  use: {
    baseURL,
    // A failed test keeps its trace: actions, network, console and a DOM snapshot at each step. Without
    // the screencast, which costs about a third of the leg's CPU (docs/performance.md, "Test suite").
    trace: { mode: "retain-on-failure", screenshots: false },
  },
  projects: [
    {
      name: "chromium",
      // e2e/reliability/ has a configuration of its own (playwright.reliability.config.ts).
      testIgnore: [/hosts\.spec\.ts/, /reliability\//],
      use: { browserName: "chromium", launchOptions: { executablePath: chromium, args: CHROMIUM_ARGS } },
    },
    {
      // MCP_URL and SIGN_IN_URL on host names of their own (e2e/hosts.spec.ts starts that server itself):
      // Chromium resolves them to this machine.
      name: "separate-hosts",
      testMatch: /hosts\.spec\.ts/,
      use: {
        browserName: "chromium",
        launchOptions: { executablePath: chromium, args: [...CHROMIUM_ARGS, `--host-resolver-rules=${SEPARATE_HOSTS.map((h) => `MAP ${h} 127.0.0.1`).join(", ")}`] },
      },
    },
  ],
  webServer: [
    {
      // Google's side of app connections and of Google sign-in, played by a local provider (e2e/support/google-provider.mjs).
      command: `node e2e/support/google-provider.mjs`,
      url: `http://127.0.0.1:${googlePort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(googlePort),
        REDIRECT_URIS: `${baseURL}/connect/callback,${baseURL}/api/auth/callback/google,${baseURL}/api/dashboard-auth/callback/google`,
        // The dashboard's sign-in shows the provider's account chooser and consent, clicked through as a person would.
        CONSENT_REDIRECT_URIS: `${baseURL}/api/dashboard-auth/callback/google`,
      },
    },
    {
      // GitHub's side of GitHub sign-in (the web flow and the REST API), played by e2e/support/github-provider.mjs.
      command: `node e2e/support/github-provider.mjs`,
      url: `http://127.0.0.1:${githubPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { PORT: String(githubPort), REDIRECT_URIS: `${baseURL}/api/auth/callback/github,${baseURL}/api/dashboard-auth/callback/github` },
    },
    {
      // The production server (scripts/server.mjs), started directly so the process Playwright stops is the server itself.
      // A live developer (keys, agent) is written into the fresh database first: e2e/support/seed.ts.
      command: `node node_modules/tsx/dist/cli.mjs e2e/support/seed.ts ${dataDir} developer > ${dataDir}-seed.json && exec node ${SERVER_NODE_FLAGS.join(" ")} scripts/server.mjs`,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(port),
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        NEXT_TELEMETRY_DISABLED: "1",
        BASE_URL: baseURL,
        // Every browser test's request comes from 127.0.0.1: the defaults of 20 text-message codes an hour
        // per address and 50 per network would be spent by the journeys together, not by any one of them.
        SMS_CODES_PER_IP_PER_HOUR: "1000",
        SMS_PER_NETWORK_PER_HOUR: "1000",
        // The journeys register their own localhost callbacks with the one seeded publishable key.
        SSO_LOCALHOST_CALLBACKS_PER_HOUR: "1000",
        // The getting-started page, the examples and the client libraries' tests each provision sandboxes
        // of their own from 127.0.0.1; the limit itself is e2e/client-address.spec.ts's, on its own server.
        SANDBOX_PROVISION_PER_HOUR: "1000",
        // A fresh embedded database and in-memory limits, whatever the calling shell points at.
        DATABASE_URL: "",
        REDIS_URL: "",
        GOOGLE_CLIENT_ID: "e2e-google-client",
        GOOGLE_CLIENT_SECRET: "e2e-google-secret",
        GOOGLE_ISSUER: `http://127.0.0.1:${googlePort}`,
        GOOGLE_AUTHORIZATION_URL: `http://127.0.0.1:${googlePort}/auth`,
        GOOGLE_TOKEN_URL: `http://127.0.0.1:${googlePort}/token`,
        GOOGLE_USERINFO_URL: `http://127.0.0.1:${googlePort}/me`,
        GOOGLE_REVOCATION_URL: `http://127.0.0.1:${googlePort}/token/revocation`,
        GOOGLE_JWKS_URL: `http://127.0.0.1:${googlePort}/jwks`,
        GITHUB_CLIENT_ID: "e2e-github-client",
        GITHUB_CLIENT_SECRET: "e2e-github-secret",
        GITHUB_URL: `http://127.0.0.1:${githubPort}`,
        GITHUB_API_URL: `http://127.0.0.1:${githubPort}/api/v3`,
        // The apps' REST APIs: the local provider does not serve them, so a background read of a connected
        // app fails there (and is retried by the job queue) instead of reaching the real providers.
        GMAIL_API_URL: `http://127.0.0.1:${googlePort}/gmail`,
        GOOGLE_CALENDAR_API_URL: `http://127.0.0.1:${googlePort}/calendar/v3`,
        GOOGLE_DRIVE_API_URL: `http://127.0.0.1:${googlePort}/drive/v3`,
        MICROSOFT_GRAPH_URL: `http://127.0.0.1:${googlePort}/graph/v1.0`,
        NOTION_API_URL: `http://127.0.0.1:${googlePort}/notion/v1`,
      },
    },
  ],
});
