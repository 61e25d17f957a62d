// npm run lint holds the layers and the cycles (.dependency-cruiser.mjs): the same check, run on a small
// tree of its own, refuses an import that climbs a layer, a folder placed in no layer and a cycle made of
// type-only imports, and lets the imports the layers allow through.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CRUISER = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

/** The tree: a path under the project's layout, and its source. */
const TREE: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", paths: { "@/*": ["./*"] } } }),
  "lib/platform/db/index.ts": "export const database = 1;\n",
  "lib/http/errors.ts": 'import { database } from "../platform/db";\nexport const status = database;\n',
  // The HTTP layer importing a domain, through the alias: refused.
  "lib/http/define-route.ts": 'import { recordAccess } from "@/lib/access-log/access-log";\nexport const route = recordAccess;\n',
  // A domain importing the HTTP layer and the platform: allowed.
  "lib/access-log/access-log.ts": 'import { status } from "../http/errors";\nexport const recordAccess = status;\n',
  // A domain importing app/: refused.
  "lib/profile/read.ts": 'import { page } from "../../app/page";\nexport const read = page;\n',
  "app/page.tsx": 'import { recordAccess } from "@/lib/access-log/access-log";\nexport const page = recordAccess;\n',
  // A folder no layer names: refused.
  "lib/stray/thing.ts": 'import { database } from "../platform/db";\nexport const thing = database;\n',
  // Two modules of one domain that import each other's types only: still a cycle.
  "lib/oidc/clients.ts": 'import type { Method } from "./client-auth";\nexport type Client = { method: Method };\n',
  "lib/oidc/client-auth.ts": 'import type { Client } from "./clients";\nexport type Method = "none";\nexport type Authenticated = Client;\n',
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

let dir: string;
let violations: Violation[];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "lint-layers-"));
  for (const [file, source] of Object.entries(TREE)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  const res = spawnSync(process.execPath, [CRUISER, "--config", path.join(ROOT, ".dependency-cruiser.mjs"), "--output-type", "json", "lib", "app"], { cwd: dir, encoding: "utf8" });
  expect(res.stderr).toBe("");
  violations = (JSON.parse(res.stdout) as { summary: { violations: Violation[] } }).summary.violations;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const found = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`);

describe("npm run lint's layers", () => {
  it("refuses the HTTP layer an import of a domain, written through the @/ alias", () => {
    expect(found("layer-http")).toEqual(["lib/http/define-route.ts → lib/access-log/access-log.ts"]);
  });

  it("refuses a domain an import of app/", () => {
    expect(found("layer-domain")).toEqual(["lib/profile/read.ts → app/page.tsx"]);
  });

  it("refuses a folder of lib/ that no layer names", () => {
    expect(found("layer-unplaced")).toEqual(["lib/stray/thing.ts → lib/platform/db/index.ts"]);
  });

  it("counts type-only imports in a cycle, and names the cycle once", () => {
    const cycles = violations.filter((v) => v.rule.name === "no-cycle");
    expect(cycles).toHaveLength(1);
    expect([cycles[0]!.from, cycles[0]!.to].sort()).toEqual(["lib/oidc/client-auth.ts", "lib/oidc/clients.ts"]);
  });

  it("lets through what the layers allow: a domain on http and the platform, app/ on a domain", () => {
    expect(violations).toHaveLength(4);
    expect(violations.some((v) => v.from === "lib/access-log/access-log.ts" || v.from === "app/page.tsx" || v.from === "lib/http/errors.ts")).toBe(false);
  });
});
