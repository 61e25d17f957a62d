// The Python client library (packages/python) against the production server: its unittest suite with
// the environment pointing at this server and the seeded developer, and its wheel installed with pip
// into a fresh virtual environment outside the repository, running an agent's turn as a developer would.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { buildPythonWheel } from "../scripts/build-python-wheel.mjs";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; agent: string };
const run = promisify(execFile);

/** The path the service serves its SDK files under: `{BASE_URL}/sdk/v1/<file>`. */
const SDK_PATH = "/sdk/v1";
/**
 * Whether pip fetches the wheel from the service itself (its build writes the wheel into .sdk/v1/ and
 * serves it at SDK_PATH). When false, a local server serves the wheel this test builds at the same path.
 */
const WHEEL_FROM_SERVICE = false;

/** Serves `dir`'s files at SDK_PATH as the service does (application/zip for a wheel); resolves to its address. */
async function serveSdk(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const file = path.basename(decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname));
    try {
      const bytes = readFileSync(path.join(dir, file));
      res.writeHead(200, { "content-type": file.endsWith(".whl") ? "application/zip" : "application/octet-stream", "content-length": bytes.length });
      res.end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

/** The address pip installs the wheel from. */
function wheelUrl(origin: string, file: string): string {
  return `${origin}${SDK_PATH}/${file}`;
}

test("the Python library's unittest suite passes against the production server", async ({ baseURL }) => {
  test.setTimeout(240_000);
  const result = await run("python3", ["-m", "unittest", "discover", "-s", "packages/python/tests", "-v"], {
    env: {
      ...process.env,
      PROFILE_SERVICE_URL: baseURL!,
      PROFILE_SERVICE_SECRET_KEY: seed.secret_key,
      PROFILE_SERVICE_AGENT: seed.agent,
      PYTHONDONTWRITEBYTECODE: "1",
    },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
    throw new Error(`python3 -m unittest exited with ${err.code}:\n${err.stderr ?? ""}${err.stdout ?? ""}`);
  });
  // unittest reports on stderr: one line a test, then "Ran N tests" and "OK" (with "skipped=" when any was skipped).
  const report = result.stderr;
  const ran = Number(/^Ran (\d+) tests? in/m.exec(report)?.[1] ?? 0);
  expect(ran, report).toBeGreaterThanOrEqual(40);
  expect(report.trimEnd().split("\n").at(-1), report).toBe("OK");
  expect(report).not.toMatch(/\.\.\. skipped/);
});

const AGENT_TURN = `
import json, os, profile_service
from profile_service import ProfileClient, read_for_turn, commit_for_turn, openai_mcp_tools

service = ProfileClient(base_url=os.environ["SERVICE_URL"], api_key=os.environ["SECRET_KEY"], agent=os.environ["AGENT"])
user = os.environ["USER_ID"]
profile = read_for_turn(service, user_id=user, conversation_id="chat_1", turn_id="1", budget=10)
answer = "Hello " + profile.get("identity", {}).get("given_name", "there")
committed = commit_for_turn(service, user_id=user, conversation_id="chat_1", turn_id="1",
                            messages=[{"role": "user", "content": "I prefer window seats."}], response=answer, sync=True, budget=30)
session = service.mcp_session(user_id=user)
try:
    ProfileClient(base_url=os.environ["SERVICE_URL"], api_key="sk_test_wrong", agent=os.environ["AGENT"]).read(user_id=user)
    refused = None
except profile_service.ServiceError as err:
    refused = [err.code, err.status]
print(json.dumps({
    "installed_at": profile_service.__file__,
    "version": profile_service.__version__,
    "linked": profile["linked"],
    "answer": answer,
    "commit": committed and committed["status"],
    "mcp_servers": session["mcp_servers"][0]["type"],
    "openai_tool": openai_mcp_tools(session)[0]["type"],
    "refused": refused,
}))
`;

test("the wheel installs with pip into a fresh virtual environment and runs an agent's turn", async ({ baseURL }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(tmpdir(), "profile-service-python-"));
  const built = path.join(dir, "sdk");
  const local = WHEEL_FROM_SERVICE ? null : await serveSdk(built);
  try {
    const file = await buildPythonWheel(built);
    const venv = path.join(dir, "venv");
    await run("python3", ["-m", "venv", venv]);
    const python = path.join(venv, "bin", "python");
    await run(python, ["-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check", wheelUrl(local?.url ?? baseURL!, file)]);

    const provisioned = await fetch(`${baseURL}/v1/sandbox/provision`, { method: "POST" });
    expect(provisioned.status).toBe(201);
    const sandbox = (await provisioned.json()) as { secret_key: string; agent: { handle: string }; user: { external_id: string } };
    const script = path.join(dir, "turn.py");
    writeFileSync(script, AGENT_TURN);
    const { stdout } = await run(python, [script], {
      cwd: dir,
      env: { ...process.env, SERVICE_URL: baseURL!, SECRET_KEY: sandbox.secret_key, AGENT: sandbox.agent.handle, USER_ID: sandbox.user.external_id },
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(String(out.installed_at).startsWith(path.join(venv, "lib"))).toBe(true);
    expect(out).toMatchObject({
      version: file.split("-")[1],
      linked: true,
      answer: "Hello Sam",
      commit: "completed",
      mcp_servers: "url",
      openai_tool: "mcp",
      refused: ["AUTH_REQUIRED", 401],
    });
  } finally {
    local?.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
