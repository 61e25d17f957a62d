// The Python client library (packages/python) against the production server: its unittest suite with
// the environment pointing at this server and the seeded developer, and its wheel installed with pip
// into a fresh virtual environment outside the repository, running an agent's turn as a developer would.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { pythonProject, wheelFileName } from "../scripts/build-python-wheel.mjs";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; agent: string };
const run = promisify(execFile);

/** One file the service lists at /sdk/v1/index.json. */
interface SdkFile {
  name: string;
  kind: string;
  version: string;
  url: string;
  sha256: string;
  install: string;
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

test("the wheel the service serves installs with pip into a fresh virtual environment and runs an agent's turn", async ({ baseURL, request }) => {
  test.setTimeout(240_000);
  // The wheel as the service lists it, and the command the listing gives, run as given.
  const { files } = (await (await request.get("/sdk/v1/index.json")).json()) as { files: SdkFile[] };
  const { version, name: packageName } = await pythonProject();
  // The current version's: earlier versions stay listed, at their own addresses.
  const wheel = files.find((f) => f.kind === "python" && f.version === version);
  expect(wheel, "the build writes the wheel the service lists").toBeDefined();
  expect(wheel!.name).toBe(wheelFileName(version));
  expect(wheel!.url).toBe(`${baseURL}/sdk/v1/${wheel!.name}`);
  expect(wheel!.install).toBe(`pip install ${wheel!.url}`);
  const dir = mkdtempSync(path.join(tmpdir(), "profile-service-python-"));
  try {
    const venv = path.join(dir, "venv");
    await run("python3", ["-m", "venv", venv]);
    const python = path.join(venv, "bin", "python");
    // From the service's address, with the listing's sha256 as pip checks a fragment: the file installed is the one listed.
    await run(python, ["-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check", `${wheel!.url}#sha256=${wheel!.sha256}`]);
    const shown = await run(python, ["-m", "pip", "show", packageName]);
    expect(shown.stdout).toContain(`Version: ${version}`);

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
      version,
      linked: true,
      answer: "Hello Sam",
      commit: "completed",
      mcp_servers: "url",
      openai_tool: "mcp",
      refused: ["AUTH_REQUIRED", 401],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
