// npm run lint, second half: the layers and the cycles, checked on the import graph (dependency-cruiser).
// Type-only imports count: a type that crosses a layer or closes a cycle couples the modules all the same.
//
// The layers, lowest first. Each names what it may import besides itself and the packages in node_modules;
// everything else is refused, so a new folder has to be placed in a layer before it can import or be imported.
//
//   platform     what any service would need and nothing of what this one decides: database, configuration,
//                clock, crypto, ids, caches, logs, rate limits, the job queue, liveness (lib/platform/, and
//                lib/env.ts and lib/process-wide.ts directly under lib/)
//   http         the HTTP layer every domain answers through (route contracts, errors, CORS, requests, cookies):
//                a leaf on the platform that imports no domain; a domain hands it what it needs
//   domain       what the service decides, one folder per noun the specification names
//   api-edge     where a request or a server action meets the domains: defineRoute's steps (credentials,
//                access log, request log) and defineAction's callers and form state
//   entry        what starts the process and runs on its own: start-up, the sweeper, Next.js's hooks and config
//   components   React pieces shared by pages
//   app          routing: pages, layouts, route handlers, server actions
//   scripts      the command line: the CLI, the worker, builds
//   tests        tests, browser tests and benchmarks: they reach anything; nothing reaches them
// `packages/` holds the published client libraries; pages may show their generated reference.

/** A module path pattern for each entry: "name/" is a folder, "name.ts" one file. */
const paths = (prefix, names) => names.map((n) => `^${prefix}${n.replace(/[.]/g, "\\.")}${n.endsWith("/") ? "" : "$"}`);

const LAYERS = {
  platform: paths("lib/", ["platform/", "env.ts", "process-wide.ts"]),
  http: paths("lib/", ["http/"]),
  domain: paths("lib/", [
    "access-log/",
    "account/",
    "agents/",
    "api-keys/",
    "app-grants/",
    "person-auth/",
    "bearer-tokens/",
    "catalogue.ts",
    "connect-links/",
    "connectors/",
    "credentials/",
    "dashboard/",
    "developer-auth/",
    "developers/",
    "email/",
    "flow/",
    "import-jobs/",
    "mcp/",
    "oidc/",
    "partner-sessions/",
    "passkeys/",
    "personal-mcp/",
    "profile/",
    "request-log/",
    "required/",
    "sandbox/",
    "sdk/",
    "sign-in/",
    "sms/",
    "users/",
    "webhooks/",
  ]),
  "api-edge": paths("lib/", ["api-edge/", "actions/"]),
  entry: [...paths("lib/", ["startup.ts", "maintenance/"]), "^instrumentation\\.ts$", "^proxy\\.ts$", "^next\\.config\\.mjs$"],
  components: ["^components/"],
  app: ["^app/", "^package\\.json$"],
  scripts: ["^scripts/"],
  packages: ["^packages/"],
  tests: ["^tests/", "^e2e/", "^bench/"],
};

/** What each layer may import besides itself. */
const MAY_IMPORT = {
  platform: [],
  http: ["platform"],
  domain: ["platform", "http"],
  "api-edge": ["platform", "http", "domain"],
  entry: ["platform", "http", "domain", "api-edge"],
  components: ["platform", "http", "domain", "api-edge", "packages"],
  app: ["platform", "http", "domain", "api-edge", "components", "packages"],
  scripts: ["platform", "http", "domain", "api-edge", "entry"],
  packages: [],
  tests: ["platform", "http", "domain", "api-edge", "entry", "components", "app", "scripts", "packages"],
};

const everyLayer = Object.values(LAYERS).flat();

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    ...Object.entries(MAY_IMPORT).map(([layer, below]) => ({
      name: `layer-${layer}`,
      severity: "error",
      comment: `${layer} imports only ${[layer, ...below].join(", ")} (the layers atop .dependency-cruiser.mjs).`,
      from: { path: LAYERS[layer] },
      to: { dependencyTypesNot: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown", "core"], pathNot: [layer, ...below].flatMap((l) => LAYERS[l]) },
    })),
    {
      name: "layer-unplaced",
      severity: "error",
      comment: "Every module of the service belongs to a layer: add its folder to LAYERS in .dependency-cruiser.mjs.",
      from: { pathNot: everyLayer },
      to: { dependencyTypesNot: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown", "core"] },
    },
    {
      name: "no-cycle",
      severity: "error",
      comment: "A module never reaches itself through its imports, type-only imports included: move the shared piece to the module that owns it.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    exclude: { path: ["(^|/)node_modules/", "^\\.next/", "^lib/platform/db/generated/"] },
    doNotFollow: { path: ["(^|/)node_modules/", "^lib/platform/db/generated/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts", ".json"],
    },
  },
};
