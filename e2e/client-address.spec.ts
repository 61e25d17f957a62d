// The production server's own word on who is asking (scripts/server.mjs, stampClientIp in
// lib/http/request.ts): a forged X-Forwarded-For entry or client-address header never changes the
// address the per-IP limits count, on the API fast path and in Next.js alike. And a development
// instance listens on 127.0.0.1 unless told otherwise, and answers /dev/* only to its own host names,
// so a page elsewhere cannot read the outbox by rebinding its own name to this machine.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SERVER_NODE_FLAGS } from "../scripts/node-flags.mjs";

const port = Number(process.env.E2E_PORT ?? 3100) + 30;
const dataDir = path.resolve(".test-data", `e2e-client-address-${Date.now()}`);
const CLIENT_IP_HEADER = "x-service-client-ip";
let server: ChildProcess;
let output = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    BASE_URL: `http://localhost:${port}`,
    // This test plays the one trusted reverse proxy in front of the service.
    TRUSTED_PROXY_HOPS: "1",
    SANDBOX_PROVISION_PER_HOUR: "2",
    FLOWS_PER_IP_PER_HOUR: "2",
  };
  delete env.HOSTNAME;
  server = spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], { stdio: ["ignore", "pipe", "inherit"], env });
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; ; i++) {
    const up = await send({ path: "/api/health" }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    if (i > 200 || server.exitCode !== null) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
});

/** One request to the server on 127.0.0.1, with exactly these headers (Host among them). */
function send(input: { path: string; method?: string; headers?: Record<string, string> }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: input.path, method: input.method ?? "GET", headers: { host: `localhost:${port}`, ...input.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** As the trusted proxy would forward `client`, with whatever the client itself forged to the left and in the service's own header. */
const viaProxy = (client: string, forged: string) => ({ "x-forwarded-for": `${forged}, ${client}`, [CLIENT_IP_HEADER]: forged });

test("a development instance listens on 127.0.0.1 when HOSTNAME is unset", () => {
  expect(output).toContain(`Service listening on http://localhost:${port} (on 127.0.0.1 only: this machine)`);
});

test("forged addresses do not change what the API's per-IP limit counts", async () => {
  const provision = (headers: Record<string, string>) => send({ path: "/v1/sandbox/provision", method: "POST", headers }).then((r) => r.status);
  expect(await provision(viaProxy("203.0.113.5", "10.0.0.1"))).toBe(201);
  expect(await provision(viaProxy("203.0.113.5", "10.0.0.2"))).toBe(201);
  expect(await provision(viaProxy("203.0.113.5", "10.0.0.3"))).toBe(429);
  expect(await provision({ "x-forwarded-for": "203.0.113.5", [CLIENT_IP_HEADER]: "198.51.100.77" })).toBe(429);
  // The address the proxy vouched for is what counts: another client is served.
  expect(await provision(viaProxy("203.0.113.6", "10.0.0.3"))).toBe(201);
});

test("forged addresses do not change what Next.js's per-IP limits count", async () => {
  const signUp = (headers: Record<string, string>) => send({ path: "/sign-up", headers }).then((r) => r.status);
  expect(await signUp(viaProxy("203.0.113.7", "10.0.1.1"))).toBe(303);
  expect(await signUp(viaProxy("203.0.113.7", "10.0.1.2"))).toBe(303);
  expect(await signUp(viaProxy("203.0.113.7", "10.0.1.3"))).toBe(429);
  expect(await signUp({ "x-forwarded-for": "203.0.113.7", [CLIENT_IP_HEADER]: "198.51.100.78" })).toBe(429);
  expect(await signUp(viaProxy("203.0.113.8", "10.0.1.3"))).toBe(303);
});

test("/dev/* answers only to the service's own host names", async () => {
  const rebound = await send({ path: "/dev/outbox", headers: { host: `evil.example:${port}` } });
  expect(rebound.status).toBe(421);
  expect(rebound.body).toBe("The development pages answer only at this service's own addresses.");
  expect((await send({ path: "/dev/email-outbox", headers: { host: "evil.example" } })).status).toBe(421);
  expect((await send({ path: "/dev/outbox", headers: { host: `localhost:${port}` } })).status).toBe(200);
  expect((await send({ path: "/dev/outbox", headers: { host: `127.0.0.1:${port}` } })).status).toBe(200);
});
