// The SDK files served at {BASE_URL}/sdk/v1/ (lib/sdk/files.ts): the client library's tarball as
// `npm run build` packs it (scripts/build-sdk.ts, run here into a directory of this file's own) and
// the Python library's wheel written beside it, each with its type, immutable caching, ETag and digest; HEAD and
// 304; the listing; 404 in the /v1 error shape for every other name, traversal and look-alikes included;
// and the docs naming the file the build packs.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "@/app/sdk/v1/[file]/route";
import * as indexJsonRoute from "@/app/sdk/v1/index.json/route";
import * as indexRoute from "@/app/sdk/v1/route";
import * as ssoRoute from "@/app/sdk/v1/service-sso.js/route";
import { ApiRouter } from "@/lib/http/node-dispatch";
import { resetEnvForTests } from "@/lib/env";
import { npmTarballName, SDK_FILE_CACHE, SDK_FILE_NOT_FOUND, SDK_INDEX_CACHE, sdkFileName, type SdkIndex } from "@/lib/sdk/files";
import browserPackage from "@/packages/browser/package.json";
import clientPackage from "@/packages/client/package.json";
import { pythonProject, wheelFileName } from "../../scripts/build-python-wheel.mjs";
import { call, TEST_ORIGIN } from "../helpers/http";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TARBALL = npmTarballName(clientPackage);
const BROWSER_TARBALL = npmTarballName(browserPackage);
const PYTHON = await pythonProject();
const WHEEL = wheelFileName(PYTHON.version);

let dir: string;
let savedSdkDir: string | undefined;

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function getFile(name: string, init: RequestInit = {}): Promise<Response> {
  return fileRoute.GET(new Request(`${TEST_ORIGIN}/sdk/v1/${encodeURIComponent(name)}`, init), { params: Promise.resolve({ file: name }) });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sdk-files-"));
  // The build's own packing step, into this file's directory.
  const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-sdk.ts"], { cwd: ROOT, env: { ...process.env, SDK_DIR: dir }, encoding: "utf8" });
  expect(built.status, built.stderr).toBe(0);
  expect(built.stdout).toMatch(
    new RegExp(`^Client library: @profile-service/client ${clientPackage.version.replace(/\./g, "\\.")}, \\d+ files, \\d+ KB → .*${TARBALL} \\(\\d+ ms\\)`),
  );
  expect(built.stdout).toMatch(
    new RegExp(`\\nBrowser library: @profile-service/browser ${browserPackage.version.replace(/\./g, "\\.")}, \\d+ files, \\d+ KB → .*${BROWSER_TARBALL} \\(\\d+ ms\\)`),
  );
  expect(built.stdout).toContain(`Python library: ${WHEEL}`);
  // What must never be served: other names, a hidden or partly written file, a directory named like a
  // tarball, a file in a subdirectory, and a link out of the directory.
  writeFileSync(path.join(dir, "notes.txt"), "not an SDK file");
  writeFileSync(path.join(dir, ".profile-service-client-0.1.0.tgz.partial"), "half");
  mkdirSync(path.join(dir, "nested-1.0.0.tgz"));
  mkdirSync(path.join(dir, "sub"));
  writeFileSync(path.join(dir, "sub", "inner-1.0.0.tgz"), "inner");
  symlinkSync(path.join(ROOT, "package.json"), path.join(dir, "outside-1.0.0.tgz"));
  savedSdkDir = process.env.SDK_DIR;
  process.env.SDK_DIR = dir;
  resetEnvForTests();
}, 60_000);

afterAll(() => {
  if (savedSdkDir === undefined) delete process.env.SDK_DIR;
  else process.env.SDK_DIR = savedSdkDir;
  resetEnvForTests();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET /sdk/v1/<file>", () => {
  it("serves the client library's tarball: gzip, cached for good, its SHA-256 as ETag and Repr-Digest, readable from any origin", async () => {
    const bytes = readFileSync(path.join(dir, TARBALL));
    const res = await getFile(TARBALL, { headers: { origin: "https://app.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("cache-control")).toBe(SDK_FILE_CACHE);
    expect(SDK_FILE_CACHE).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toBe(`"${sha256(bytes)}"`);
    expect(res.headers.get("repr-digest")).toBe(`sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`);
    expect(res.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${TARBALL}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(bytes)).toBe(true);
    // An npm package: package.json and the compiled library with its declarations, under package/.
    const tar = gunzipSync(body).toString("latin1");
    for (const entry of ["package/package.json", "package/README.md", "package/dist/index.js", "package/dist/index.d.ts"]) expect(tar).toContain(entry);
    expect(tar).toContain(`"name": "${clientPackage.name}"`);
    expect(tar).not.toContain("package/src/");
    expect(tar).not.toContain('"scripts"');
  });

  it("serves the browser library's tarball: an ES module with declarations, without the served script's entry", async () => {
    const bytes = readFileSync(path.join(dir, BROWSER_TARBALL));
    const res = await getFile(BROWSER_TARBALL);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("cache-control")).toBe(SDK_FILE_CACHE);
    const tar = gunzipSync(Buffer.from(await res.arrayBuffer())).toString("latin1");
    expect(bytes.byteLength).toBeGreaterThan(0);
    for (const entry of ["package/package.json", "package/README.md", "package/dist/index.js", "package/dist/index.d.ts", "package/dist/element.js", "package/dist/sso.js"])
      expect(tar).toContain(entry);
    expect(tar).toContain(`"name": "${browserPackage.name}"`);
    expect(tar).toContain('"sideEffects": false');
    // The served script's entry sets window.Service and defines the element at load: not in the module.
    expect(tar).not.toContain("package/dist/script.js");
    expect(tar).not.toContain("package/src/");
  });

  it("serves the Python library's wheel, written beside it, as application/zip", async () => {
    const wheelBytes = readFileSync(path.join(dir, WHEEL));
    const res = await getFile(WHEEL);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("cache-control")).toBe(SDK_FILE_CACHE);
    expect(res.headers.get("etag")).toBe(`"${sha256(wheelBytes)}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(wheelBytes)).toBe(true);
  });

  it("answers HEAD with the headers and no body", async () => {
    const size = readFileSync(path.join(dir, TARBALL)).byteLength;
    const res = await fileRoute.HEAD(new Request(`${TEST_ORIGIN}/sdk/v1/${TARBALL}`, { method: "HEAD" }), { params: Promise.resolve({ file: TARBALL }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-length")).toBe(String(size));
    expect(res.headers.get("cache-control")).toBe(SDK_FILE_CACHE);
    expect(res.body).toBeNull();
  });

  it("answers 304 to If-None-Match naming the file's ETag", async () => {
    const etag = (await getFile(TARBALL)).headers.get("etag")!;
    const res = await getFile(TARBALL, { headers: { "if-none-match": `W/"other", ${etag}` } });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("cache-control")).toBe(SDK_FILE_CACHE);
    expect(await res.text()).toBe("");
  });

  it("reads a file again when it is replaced", async () => {
    const name = "replaced-1.0.0.tgz";
    writeFileSync(path.join(dir, name), "first");
    expect(await (await getFile(name)).text()).toBe("first");
    writeFileSync(path.join(dir, name), "second, longer");
    const res = await getFile(name);
    expect(await res.text()).toBe("second, longer");
    expect(res.headers.get("etag")).toBe(`"${sha256(Buffer.from("second, longer"))}"`);
    rmSync(path.join(dir, name));
    expect((await getFile(name)).status).toBe(404);
  });

  it.each([
    ["a version not served", "profile-service-client-9.9.9.tgz"],
    ["a path out of the directory", "../package.json"],
    ["a deeper traversal", "../../../etc/passwd"],
    ["a traversal dressed as a tarball", "..%2F..%2Fpackage-1.0.0.tgz"],
    ["dots inside a name", "a..b-1.0.0.tgz"],
    ["a subdirectory's file", "sub/inner-1.0.0.tgz"],
    ["a backslash", "sub\\inner-1.0.0.tgz"],
    ["an absolute path", "/etc/passwd"],
    ["another extension", "notes.txt"],
    ["a hidden, partly written file", ".profile-service-client-0.1.0.tgz.partial"],
    ["a directory named like a tarball", "nested-1.0.0.tgz"],
    ["a symbolic link out of the directory", "outside-1.0.0.tgz"],
    ["a NUL character", "profile-service-client-0.1.0.tgz\u0000"],
    ["the directory itself", ""],
    ["a very long name", `${"a".repeat(300)}-1.0.0.tgz`],
  ])("answers 404 not_found for %s", async (_, name) => {
    const res = await call(fileRoute.GET, { path: `/sdk/v1/${encodeURIComponent(name)}`, params: { file: name } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: "not_found", message: SDK_FILE_NOT_FOUND }, request_id: expect.stringMatching(/^req_/) });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the SDK file names", () => {
  it("admit npm tarballs and PEP 427 wheels, and nothing that could leave the directory", () => {
    for (const name of [
      TARBALL,
      "profile-service-browser-1.0.0.tgz",
      "x-1.2.3-beta.1.tgz",
      WHEEL,
      "profile_service_client-0.1.0.post1-1-py3-none-any.whl",
      "pkg-2.0rc1+local.1-py2.py3-none-any.whl",
    ])
      expect(sdkFileName.safeParse(name).success, name).toBe(true);
    for (const name of [
      "..",
      "../x-1.0.0.tgz",
      "x-1.0.0.tgz/",
      "x-1.0.0.tar.gz",
      "x-1.0.0.zip",
      "X-1.0.0.TGZ",
      "x_1.0.0.tgz",
      "-1.0.0.tgz",
      "x-1.0.tgz",
      "x-1.0.0-..tgz",
      "x-1.0.0-py3-none-any.whl/..",
      "x y-1.0.0.tgz",
    ])
      expect(sdkFileName.safeParse(name).success, name).toBe(false);
  });
});

describe("GET /sdk/v1/index.json and GET /sdk/v1", () => {
  it("list every file served, with its version, size, SHA-256, integrity and install command; nothing else", async () => {
    const tarball = readFileSync(path.join(dir, TARBALL));
    const browserTarball = readFileSync(path.join(dir, BROWSER_TARBALL));
    const wheelBytes = readFileSync(path.join(dir, WHEEL));
    const expected: SdkIndex = {
      files: [
        {
          name: BROWSER_TARBALL,
          kind: "npm",
          package: "profile-service-browser",
          version: browserPackage.version,
          url: `http://localhost:3000/sdk/v1/${BROWSER_TARBALL}`,
          content_type: "application/gzip",
          size: browserTarball.byteLength,
          sha256: sha256(browserTarball),
          integrity: `sha512-${createHash("sha512").update(browserTarball).digest("base64")}`,
          install: `npm install http://localhost:3000/sdk/v1/${BROWSER_TARBALL}`,
        },
        {
          name: TARBALL,
          kind: "npm",
          package: "profile-service-client",
          version: clientPackage.version,
          url: `http://localhost:3000/sdk/v1/${TARBALL}`,
          content_type: "application/gzip",
          size: tarball.byteLength,
          sha256: sha256(tarball),
          integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
          install: `npm install http://localhost:3000/sdk/v1/${TARBALL}`,
        },
        {
          name: WHEEL,
          kind: "python",
          package: "profile_service",
          version: PYTHON.version,
          url: `http://localhost:3000/sdk/v1/${WHEEL}`,
          content_type: "application/zip",
          size: wheelBytes.byteLength,
          sha256: sha256(wheelBytes),
          integrity: `sha512-${createHash("sha512").update(wheelBytes).digest("base64")}`,
          install: `pip install http://localhost:3000/sdk/v1/${WHEEL}`,
        },
      ],
    };
    for (const route of [indexJsonRoute, indexRoute]) {
      const res = await call<SdkIndex>(route.GET, { headers: { origin: "https://docs.example" } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
      expect(res.headers.get("cache-control")).toBe(SDK_INDEX_CACHE);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const again = await call(route.GET, { headers: { "if-none-match": res.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
  });

  it("lists no file where no build ran", async () => {
    process.env.SDK_DIR = path.join(dir, "missing");
    resetEnvForTests();
    try {
      expect((await call<SdkIndex>(indexJsonRoute.GET)).body).toEqual({ files: [] });
      expect((await call(fileRoute.GET, { path: `/sdk/v1/${TARBALL}`, params: { file: TARBALL } })).status).toBe(404);
    } finally {
      process.env.SDK_DIR = dir;
      resetEnvForTests();
    }
  });
});

describe("the API fast path's table", () => {
  it("keeps /sdk/v1/service-sso.js and /sdk/v1/index.json ahead of /sdk/v1/[file], and serves HEAD of a file", () => {
    const router = new ApiRouter([
      { file: "app/sdk/v1/[file]/route.ts", module: fileRoute },
      { file: "app/sdk/v1/index.json/route.ts", module: indexJsonRoute },
      { file: "app/sdk/v1/route.ts", module: indexRoute },
      { file: "app/sdk/v1/service-sso.js/route.ts", module: ssoRoute },
    ]);
    expect(router.match("GET", "/sdk/v1/service-sso.js")).toEqual({ handler: ssoRoute.GET, params: {} });
    expect(router.match("GET", "/sdk/v1/index.json")).toEqual({ handler: indexJsonRoute.GET, params: {} });
    expect(router.match("GET", "/sdk/v1/")).toEqual({ handler: indexRoute.GET, params: {} });
    expect(router.match("GET", `/sdk/v1/${TARBALL}`)).toEqual({ handler: fileRoute.GET, params: { file: TARBALL } });
    expect(router.match("HEAD", `/sdk/v1/${TARBALL}`)).toEqual({ handler: fileRoute.HEAD, params: { file: TARBALL } });
    expect(router.match("POST", `/sdk/v1/${TARBALL}`)).toEqual({ allow: ["GET", "HEAD"] });
    // The script's HEAD stays with Next.js.
    expect(router.match("HEAD", "/sdk/v1/service-sso.js")).toEqual({ allow: ["GET"] });
  });
});

describe("the docs", () => {
  it("give the install command with the file name the build packs", () => {
    for (const doc of ["README.md", "packages/client/README.md", "docs/client-library.md"]) {
      const text = readFileSync(path.join(ROOT, doc), "utf8");
      expect(text, doc).toContain(`npm install {BASE_URL}/sdk/v1/${TARBALL}`);
      expect(text, doc).not.toMatch(/npm install @profile-service\/client/);
    }
    for (const doc of ["packages/browser/README.md", "docs/browser-helper.md"]) {
      expect(readFileSync(path.join(ROOT, doc), "utf8"), doc).toContain(`npm install {BASE_URL}/sdk/v1/${BROWSER_TARBALL}`);
    }
    expect(readFileSync(path.join(ROOT, "docs/api.md"), "utf8")).toContain(`"${SDK_FILE_NOT_FOUND}"`);
  });
});
