import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts", "packages/*/tests/**/*.test.ts"],
    // One migrated database per run, which each file's own database starts from (tests/global-setup.ts).
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    // next-auth imports "next/server" without an extension, which only a bundler resolves: let Vite
    // load it (route modules that use it are imported by the fast-path tests).
    server: { deps: { inline: ["next-auth"] } },
    hookTimeout: 60_000,
  },
});
