// npm run lint: typescript-eslint's type-checked rules, React's and Next.js's rules, and the house rules
// that hold the layout — configuration read in one module, small files (../shared/HOUSE-STYLE.md). The
// layers and the import cycles are checked on the import graph: .dependency-cruiser.mjs (scripts/lint.mjs runs both).
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** A file that runs on the server: every file but a client component (its first statement "use client"). */
const SERVER_CODE = 'Program:not(:has(> ExpressionStatement[directive="use client"]))';

/** A plugin's recommended rules with each warning made an error: npm run lint fails on any finding. */
function asErrors(rules) {
  return Object.fromEntries(Object.entries(rules).map(([name, level]) => [name, level === "off" ? "off" : "error"]));
}

// ── Server actions: one contract ────────────────────────────────────────────────────────────────
// Every export of a "use server" module is a public POST endpoint, so each is built by defineAction
// (lib/actions/define-action.ts), which parses its input, checks its caller and translates its errors.
// A bare exported function, a re-export, a default export or the directive inside a function would
// bypass all three: this rule refuses them (tests/actions/server-actions.test.ts checks the built modules too).
const serverActions = {
  rules: {
    "defined-actions-only": {
      meta: {
        type: "problem",
        schema: [],
        messages: {
          bare: 'A "use server" module exports only actions built with defineAction (export const name = defineAction({ ... })).',
          inline: 'Server actions live in a "use server" module and are built with defineAction, not declared inside a function.',
        },
      },
      create(context) {
        const isDirective = (node) => node.type === "ExpressionStatement" && node.directive === "use server";
        const built = (declarator) => declarator.init?.type === "CallExpression" && declarator.init.callee.type === "Identifier" && declarator.init.callee.name === "defineAction";
        let serverModule = false;
        return {
          Program(node) {
            // The directives are the statements that open the module, before anything else.
            serverModule = false;
            for (const statement of node.body) {
              if (statement.type !== "ExpressionStatement" || !statement.directive) break;
              if (isDirective(statement)) serverModule = true;
            }
          },
          ExportNamedDeclaration(node) {
            if (!serverModule || node.exportKind === "type") return;
            const declaration = node.declaration;
            if (declaration?.type === "TSTypeAliasDeclaration" || declaration?.type === "TSInterfaceDeclaration") return;
            if (declaration?.type === "VariableDeclaration" && declaration.declarations.every(built)) return;
            context.report({ node, messageId: "bare" });
          },
          ExportDefaultDeclaration(node) {
            if (serverModule) context.report({ node, messageId: "bare" });
          },
          ExportAllDeclaration(node) {
            if (serverModule) context.report({ node, messageId: "bare" });
          },
          ":function > BlockStatement > ExpressionStatement"(node) {
            if (isDirective(node)) context.report({ node, messageId: "inline" });
          },
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".data/",
      ".test-data/",
      "lib/platform/db/generated/",
      "test-results/",
      "playwright-report/",
      "next-env.d.ts",
      "public/",
      "packages/*/dist/",
      "examples/nextjs-authjs/.next/",
      "examples/nextjs-authjs/next-env.d.ts",
    ],
  },
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
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        fetch: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        performance: "readonly",
        AbortSignal: "readonly",
      },
    },
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
      "playwright.reliability.config.ts",
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
  // React's rules of hooks and the React Compiler's checks, and Next.js's own rules (core web vitals), on
  // the pages and their pieces. Each finding fails the run: their warnings count as errors here.
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...asErrors(reactHooks.configs.flat["recommended-latest"].rules),
      ...asErrors(nextPlugin.configs["core-web-vitals"].rules),
    },
  },
  // components/ are shared pieces of pages, never pages themselves.
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(@/|(\\.\\./)+)app(/.*)?$", message: "components/ does not import from app/." }] }],
    },
  },
  // One clock. Wall time in server code (a lifetime, a gate, a time stored or shown) comes from now() in
  // lib/platform/clock.ts, which tests move; time elapsed in the process (a latency, a time slice, a cache entry's
  // age) from performance.now(), which no test moves and which never steps back. Browser code reads the
  // browser's own time: the test clock is an offset inside the server process and never reaches a
  // browser, so client components ("use client") and the MCP card's host script are exempt.
  {
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "scripts/**/*.ts"],
    ignores: ["lib/platform/clock.ts", "lib/mcp/cards/host/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: `${SERVER_CODE} CallExpression[callee.object.name="Date"][callee.property.name="now"]`,
          message: "Read the time through now() from lib/platform/clock.ts (tests move it); measure elapsed time with performance.now().",
        },
        {
          selector: `${SERVER_CODE} NewExpression[callee.name="Date"][arguments.length=0]`,
          message: "Read the time through now() from lib/platform/clock.ts (tests move it); new Date(x) with a value is fine.",
        },
      ],
    },
  },
  // Small files: past 350 lines, two things live in one. Every line counts, as `wc -l` counts them.
  // Tests, browser tests and benchmarks are lists of cases, split by subject rather than by length.
  {
    files: ["app/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "scripts/**/*.{ts,mjs}"],
    rules: { "max-lines": ["error", { max: 350, skipBlankLines: false, skipComments: false }] },
  },
  // Server actions: one contract (the rule above `export default`).
  {
    files: ["app/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    plugins: { "server-actions": serverActions },
    rules: { "server-actions/defined-actions-only": "error" },
  },
);
