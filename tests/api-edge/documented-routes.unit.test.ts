// Every route the documentation names with a method ("POST /v1/profile/commit", "GET {BASE_URL}/mcp-apps/…")
// is served: a route in the route manifest (lib/http/route-manifest.json, which the fast path and the
// /v1 404/405 answers read) or a page in app/ takes that method at that path. Paths of outside services
// the docs quote (Gmail's, Graph's, Notion's, Twilio's) are not the service's and are left out.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isCatchAll, ROUTES, segmentsOf } from "@/lib/http/route-manifest";
import { connectorTools } from "@/lib/mcp/tools";
import { discoveryDocument } from "@/lib/oidc/discovery";

const ROOT = path.resolve(__dirname, "../..");

/** The service's own addresses a document may start a path with, as the paths they stand for. */
const BASES: Record<string, string> = { "{BASE_URL}": "", "{MCP_URL}": "/personal-mcp", "{SIGN_IN_URL}": "/sign-in" };
/** First segments of the service's own paths: anything else after a method is another service's API. */
const OWN_ROOTS = new Set([
  "v1",
  "oauth",
  ".well-known",
  "mcp",
  "personal-mcp",
  "account",
  "flow",
  "sign-in",
  "sign-up",
  "api",
  "openapi.json",
  "sdk",
  "mcp-apps",
  "connect",
  "dev",
  "dashboard",
  "docs",
  "partner",
  "verify",
]);

function filesUnder(dir: string, name: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(full, name);
    return name.test(e.name) ? [full] : [];
  });
}

interface Served {
  segments: string[];
  methods: Set<string>;
  file: string;
}

/** A page's path segments, from its folder (route groups left out). */
function pageSegments(file: string): string[] {
  return path
    .relative(path.join(ROOT, "app"), path.dirname(file))
    .split(path.sep)
    .filter((p) => p && !(p.startsWith("(") && p.endsWith(")")));
}

/** What app/ serves: the manifest's routes, and pages (GET). The /v1 fallback (a JSON 404) serves nothing. */
function servedRoutes(): Served[] {
  const routes = ROUTES.filter((r) => !(r.path.startsWith("/v1/") && isCatchAll(r.path))).map((r) => ({
    file: r.file,
    segments: segmentsOf(r.path),
    methods: new Set<string>([r.method]),
  }));
  const pages = filesUnder(path.join(ROOT, "app"), /^page\.tsx?$/).map((file) => ({ file, segments: pageSegments(file), methods: new Set(["GET"]) }));
  return [...routes, ...pages];
}

function matches(served: string[], documented: string[]): boolean {
  for (let i = 0; i < served.length; i++) {
    const seg = served[i]!;
    if (seg.startsWith("[...") || seg.startsWith("[[...")) return documented.length > i || seg.startsWith("[[");
    const part = documented[i];
    if (part === undefined) return false;
    if (seg.startsWith("[")) continue;
    // A placeholder stands for any segment: `POST /v1/tools/<tool name>` names the family of tool routes.
    if (part !== seg && !isPlaceholder(part)) return false;
  }
  return served.length === documented.length;
}

function partsOf(documentedPath: string): string[] {
  return documentedPath.split("/").slice(1).filter(Boolean);
}

/** `:id`, `<id>`, `{id}`, `[id]`, `…`: a path parameter in the documentation's notations. */
function isPlaceholder(part: string): boolean {
  return /^(:[A-Za-z]\w*|<[^>]+>|\{[^}]+\}|\[[^\]]+\]|…)$/.test(part);
}

interface Documented {
  method: string;
  path: string;
  where: string;
}

/** Every "METHOD /path" (and "GET or POST /path") in a Markdown text whose path is the service's own. */
function documentedRoutes(text: string, file: string): Documented[] {
  const out: Documented[] = [];
  const lines = text.split("\n");
  const pattern = /\b((?:GET|POST|PUT|PATCH|DELETE)(?:\s+or\s+(?:GET|POST|PUT|PATCH|DELETE))*)`?\s+`?((?:\{[A-Z_]+\})?\/(?:[^\s`|)"'*<]|<[^>]*>)*)/g;
  lines.forEach((line, i) => {
    for (const m of line.matchAll(pattern)) {
      let raw = m[2]!;
      let base = "";
      const prefix = /^\{[A-Z_]+\}/.exec(raw)?.[0];
      if (prefix) {
        if (!(prefix in BASES)) continue;
        base = BASES[prefix]!;
        raw = raw.slice(prefix.length);
      }
      const cleaned = `${base}${raw}`
        .replace(/<[^>]*>/g, "<param>")
        .replace(/[?#].*$/, "")
        .replace(/\]\(.*$/, "")
        .replace(/[.,;:!\]]+$/, "");
      const root = cleaned.split("/")[1];
      if (!root || !OWN_ROOTS.has(root)) continue;
      for (const method of m[1]!.split(/\s+or\s+/)) out.push({ method, path: cleaned, where: `${file}:${i + 1}` });
    }
  });
  return out;
}

function docs(): Array<{ file: string; text: string }> {
  const files = [path.join(ROOT, "README.md"), ...filesUnder(path.join(ROOT, "docs"), /\.md$/)];
  return files.map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, "utf8") }));
}

describe("documented routes", () => {
  const served = servedRoutes();
  const documented = docs().flatMap(({ file, text }) => documentedRoutes(text, file));

  it("finds the routes the documentation names", () => {
    // A guard on the parser itself: the reference names these, so finding none would mean it reads nothing.
    const paths = new Set(documented.map((d) => `${d.method} ${d.path}`));
    for (const known of [
      "POST /v1/profile/mcp-session",
      "GET /v1/profile",
      "POST /oauth/token",
      "GET /oauth/userinfo",
      "POST /oauth/userinfo",
      "POST /mcp",
      "GET /.well-known/openid-configuration",
    ]) {
      expect(paths, known).toContain(known);
    }
    expect(documented.length).toBeGreaterThan(60);
  });

  it("serves every one of them, with the method named", () => {
    const unserved = documented.filter((d) => {
      return !served.some((r) => r.methods.has(d.method) && matches(r.segments, partsOf(d.path)));
    });
    expect(unserved.map((d) => `${d.where}: ${d.method} ${d.path}`)).toEqual([]);
  });

  it("finds every documented /v1 route in the route manifest, whose table the fast path answers 404 and 405 from", () => {
    const table = ROUTES.filter((r) => r.path.startsWith("/v1/") && !isCatchAll(r.path)).map((r) => ({ segments: segmentsOf(r.path), methods: new Set<string>([r.method]) }));
    const missing = documented.filter((d) => d.path.startsWith("/v1/")).filter((d) => !table.some((r) => r.methods.has(d.method) && matches(r.segments, partsOf(d.path))));
    expect(missing.map((d) => `${d.where}: ${d.method} ${d.path}`)).toEqual([]);
  });

  it("reads the notations the documentation uses, and refuses a route nobody serves", () => {
    const sample = [
      "#### GET or POST /oauth/userinfo",
      "`POST {BASE_URL}/oauth/register` with the client metadata",
      "`GET /v1/import/jobs/:jobId` and `POST /v1/tools/<tool name>`;",
      "answers `GET /v1/profile?box=plans&page=1`. Graph's `GET /me/messages` is not ours.",
      "See [POST /oauth/token](#post-oauthtoken).",
      "`DELETE /v1/profile/everything`",
    ].join("\n");
    const found = documentedRoutes(sample, "sample.md");
    expect(found.map((d) => `${d.method} ${d.path}`)).toEqual([
      "GET /oauth/userinfo",
      "POST /oauth/userinfo",
      "POST /oauth/register",
      "GET /v1/import/jobs/:jobId",
      "POST /v1/tools/<param>",
      "GET /v1/profile",
      "POST /oauth/token",
      "DELETE /v1/profile/everything",
    ]);
    const unserved = found.filter((d) => !served.some((r) => r.methods.has(d.method) && matches(r.segments, partsOf(d.path))));
    expect(unserved.map((d) => d.path)).toEqual(["/v1/profile/everything"]);
  });
});

describe("what docs/api.md says is served", () => {
  const api = readFileSync(path.join(ROOT, "docs/api.md"), "utf8");
  const connectors = readFileSync(path.join(ROOT, "docs/connector-tools.md"), "utf8");

  it("documents every connector tool the developer MCP server serves, and calls none of them unserved", () => {
    const names = connectorTools().map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(connectors, name).toContain(`### ${name}`);
    expect(api).not.toMatch(/not\s+served\s+yet/);
  });

  it("names every endpoint the discovery document lists, and says it lists them", () => {
    for (const [field, value] of Object.entries(discoveryDocument())) {
      if (!field.endsWith("_endpoint") || typeof value !== "string") continue;
      expect(api, field).toContain(`\`${field}\``);
      expect(api, field).toContain(new URL(value).pathname);
    }
    expect(api).not.toMatch(/not\s+advertised/);
  });

  it("says what a replayed authorization code does: refused, and nothing else changes", () => {
    expect(api).not.toMatch(/used code again revokes/);
    expect(api).toMatch(/presenting a used code again is\s+`invalid_grant` "Authorization code was already used\." and changes nothing/);
  });
});
