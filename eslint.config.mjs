// npm run lint: typescript-eslint's type-checked rules, and the house rules that hold the layout —
// import boundaries, configuration read in one module, small files (../shared/HOUSE-STYLE.md).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The domains: what the service decides. lib/http, the HTTP layer beneath them, imports none of them;
 * it resolves a request's credentials (lib/api-keys, lib/agents, lib/users, lib/bearer-tokens) and nothing else.
 */
const DOMAINS = ["auth", "connect-links", "connectors", "developers", "email", "flow", "jobs", "mcp", "oidc", "profile", "sandbox", "sms"];

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".data/", ".test-data/", "lib/db/generated/", "test-results/", "playwright-report/", "next-env.d.ts", "public/", "packages/*/dist/", "examples/nextjs-authjs/.next/", "examples/nextjs-authjs/next-env.d.ts"] },
  js.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore names what a signature or a destructuring must hold but the code does not use.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Implementations of an async contract (route handlers, providers, distillers) are async whether
      // or not this one awaits: the contract, not the body, decides.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", fetch: "readonly", URL: "readonly", Buffer: "readonly", setTimeout: "readonly", clearTimeout: "readonly", performance: "readonly", AbortSignal: "readonly" } },
  },
  // Tests, browser tests and benchmarks read JSON answers whose shape they then assert: `any` from
  // response.json() is what they check, not what they trust.
  {
    files: ["tests/**", "e2e/**", "bench/**", "packages/*/tests/**"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  // Configuration is read in lib/env.ts only. Not configuration: what tests, browser tests and benchmarks
  // set up, and the plain-Node launchers that run before TypeScript can load and only hand their
  // environment on to the processes they start (npm run build, npm start, npm test, prisma generate).
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: [
      "lib/env.ts",
      "tests/**",
      "e2e/**",
      "bench/**",
      "playwright.config.ts",
      "vitest.config.ts",
      "eslint.config.mjs",
      "scripts/build.mjs",
      "scripts/start.mjs",
      "scripts/test.mjs",
      "scripts/prisma-generate.mjs",
    ],
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read configuration through lib/env.ts." }],
    },
  },
  // Routing only: app/ reaches the database through lib/<domain>.
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(@/|(\\.\\./)+)lib/db(/.*)?$", message: "app/ only wires: query through a function in lib/<domain>." }] }],
    },
  },
  // components/ are shared pieces of pages, never pages themselves.
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(@/|(\\.\\./)+)app(/.*)?$", message: "components/ does not import from app/." }] }],
    },
  },
  // The HTTP layer serves every domain and depends on none.
  {
    files: ["lib/http/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: `^((\\.\\./)+|@/lib/)(${DOMAINS.join("|")})(/.*)?$`, message: "lib/http does not import domains: have the domain hand it what it needs." }] },
      ],
    },
  },
  // Small files: past this, two things live in one.
  {
    files: ["app/**/*.{ts,tsx}", "lib/**/*.ts", "components/**/*.tsx", "scripts/**/*.{ts,mjs}"],
    rules: { "max-lines": ["error", { max: 450, skipBlankLines: true, skipComments: true }] },
  },
);
