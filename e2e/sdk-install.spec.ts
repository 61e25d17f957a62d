// The client library installed from the running service as a developer installs it: the address the
// getting-started page gives (the file /sdk/v1/index.json lists), `npm install`ed into a fresh project
// outside the repository, then a plain .mjs script that imports @profile-service/client and calls the
// service with the seeded developer's keys.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";

const sh = promisify(execFile);
const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; agent: string };
const clientPackage = JSON.parse(readFileSync(path.resolve("packages/client/package.json"), "utf8")) as { name: string; version: string };

interface Listed {
  name: string;
  kind: string;
  package: string;
  version: string;
  url: string;
  size: number;
  integrity: string;
}

/** What the script reports: each call it made through the installed library, and what came back. */
interface Report {
  registered: boolean;
  listed: string[];
  signInUrl: string;
  signInStatus: number;
  unknownUser: { isServiceError: boolean; type: string };
}

const SCRIPT = `import { ProfileClient, ServiceError } from "@profile-service/client";

const service = new ProfileClient({ baseUrl: process.env.SERVICE_URL, apiKey: process.env.SECRET_KEY, agent: process.env.AGENT });
const returnTo = "http://localhost:4999/signed-in";
const registered = await service.registerReturnDestination({ returnTo });
const listed = await service.listReturnDestinations();
const signInUrl = service.signInUrl({ returnTo, state: "sdk-install" });
const signIn = await fetch(signInUrl, { redirect: "manual" });
let unknownUser;
try {
  await service.read({ user: { userId: "nobody-installed-the-sdk" } });
} catch (err) {
  unknownUser = { isServiceError: err instanceof ServiceError, type: err.type };
}
console.log(JSON.stringify({
  registered: registered.destination.returnTo === returnTo,
  listed: listed.destinations.map((d) => d.returnTo),
  signInUrl,
  signInStatus: signIn.status,
  unknownUser,
}));
`;

test("a project outside the repository installs the client library from the service and calls it with the developer's keys", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  // The file the listing names is the one the getting-started page tells developers to install.
  const index = (await (await request.get("/sdk/v1/index.json")).json()) as { files: Listed[] };
  // The current version's: earlier versions stay listed, at their own addresses.
  const tarball = index.files.find((f) => f.kind === "npm" && f.package === "profile-service-client" && f.version === clientPackage.version);
  expect(tarball, "npm run build packs the client library into the directory /sdk/v1/ serves").toBeDefined();
  expect(tarball!.url).toBe(`${baseURL}/sdk/v1/profile-service-client-${clientPackage.version}.tgz`);
  await page.goto("/docs/getting-started");
  const command = await page.getByTestId("step-install").innerText();
  expect(command).toBe(`npm install ${tarball!.url}`);

  const dir = mkdtempSync(path.join(tmpdir(), "sdk-install-"));
  try {
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "sdk-install-check", private: true, type: "module" }, null, 2));
    const started = performance.now();
    await sh("sh", ["-c", `${command} --no-audit --no-fund`], { cwd: dir });
    console.log(`npm install ${tarball!.name}: ${Math.round(performance.now() - started)} ms`);

    // npm recorded the file the listing describes, by its address and integrity value. npm keeps a file
    // served immutable in its cache under its address: another integrity is an earlier file of the same
    // name, which every machine that installed it keeps too.
    const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string; resolved?: string; integrity?: string }> };
    expect(
      lock.packages[`node_modules/${clientPackage.name}`],
      "the client library changed under the same version: raise the version in packages/client/package.json (and packages/python's with it)",
    ).toMatchObject({ version: clientPackage.version, resolved: tarball!.url, integrity: tarball!.integrity });

    writeFileSync(path.join(dir, "check.mjs"), SCRIPT);
    const { stdout } = await sh(process.execPath, ["check.mjs"], { cwd: dir, env: { ...process.env, SERVICE_URL: baseURL!, SECRET_KEY: seed.secret_key, AGENT: seed.agent } });
    const report = JSON.parse(stdout) as Report;
    expect(report.registered).toBe(true);
    expect(report.listed).toContain("http://localhost:4999/signed-in");
    expect(report.signInUrl).toBe(`${baseURL}/sign-in/${seed.agent}?return_to=${encodeURIComponent("http://localhost:4999/signed-in")}&state=sdk-install`);
    expect(report.signInStatus).toBeLessThan(400);
    expect(report.unknownUser).toEqual({ isServiceError: true, type: "unknown_user" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the tarball is served immutable by HEAD and GET, and a name outside the listing is 404", async ({ request }) => {
  const index = (await (await request.get("/sdk/v1/index.json")).json()) as { files: Listed[] };
  const file = index.files.find((f) => f.kind === "npm")!;
  const head = await request.head(`/sdk/v1/${file.name}`);
  expect(head.status()).toBe(200);
  expect(head.headers()["content-type"]).toBe("application/gzip");
  expect(head.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const get = await request.get(`/sdk/v1/${file.name}`);
  expect(get.headers()["etag"]).toBe(head.headers()["etag"]);
  expect(Number(head.headers()["content-length"])).toBe(file.size);
  expect((await get.body()).byteLength).toBe(file.size);
  for (const name of ["profile-service-client-0.0.0.tgz", "..%2Fpackage.json", "%2E%2E%2F%2E%2E%2Fpackage.json"]) {
    const res = await request.get(`/sdk/v1/${name}`);
    expect(res.status(), name).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code, name).toBe("not_found");
  }
  // The sign-in button's script keeps its own address beside the files.
  expect((await request.get("/sdk/v1/service-sso.js")).headers()["content-type"]).toBe("text/javascript; charset=utf-8");
});
