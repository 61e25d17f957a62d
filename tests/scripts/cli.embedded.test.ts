// The command-line tool, run as a newcomer would (npm run service -- …), on its own embedded database.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), "cli-"));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "development" as const, LOG_LEVEL: "silent" };
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

describe("npm run service", () => {
  it("creates a developer, issues, lists and revokes keys, manages agents and origins", async () => {
    const dev = await cli("create-developer", "--name", "acme", "--tier", "pro");
    expect(dev.code).toBe(0);
    expect(dev.out).toContain("tier: pro");

    const live = await cli("issue-key", "--developer", "acme", "--kind", "secret", "--plane", "live");
    const key = live.out.match(/\b(sk_[A-Za-z0-9]{32})\b/)?.[1];
    expect(key, live.out + live.err).toBeDefined();
    const test = await cli("issue-key", "--developer", "acme", "--kind", "publishable", "--plane", "test");
    expect(test.out).toMatch(/\bpk_test_[A-Za-z0-9]{32}\b/);

    const listed = await cli("list-keys", "--developer", "acme");
    expect(listed.out).toContain(`${key!.slice(0, 7)}…`);
    expect(listed.out).not.toContain(key);
    expect(listed.out).toContain("live secret  active");
    expect(listed.out).toContain("made with the command line");

    expect((await cli("revoke-key", "--developer", "acme", "--key", key!.slice(0, 7))).out).toContain("Revoked 1 key");
    expect((await cli("list-keys", "--developer", "acme")).out).toMatch(/live secret {2}revoked/);

    const agent = await cli("create-agent", "--developer", "acme", "--handle", "helper-bot", "--name", "Helper");
    expect(JSON.parse(agent.out)).toMatchObject({ handle: "helper-bot", display_name: "Helper", sign_in_url: "http://localhost:3000/sign-in/helper-bot" });
    const agents = JSON.parse((await cli("list-agents", "--developer", "acme")).out);
    expect(agents.map((a: { handle: string }) => a.handle)).toEqual(["helper-bot"]);

    expect((await cli("add-origin", "--developer", "acme", "--origin", "https://app.acme.example")).out).toContain("Origin approved: https://app.acme.example");
    const badOrigin = await cli("add-origin", "--developer", "acme", "--origin", "http://app.acme.example");
    expect(badOrigin.code).toBe(1);
    expect(badOrigin.err).toContain("origin must be an https origin (or localhost)");

    expect((await cli("set-tier", "--developer", "acme", "--tier", "scale")).out).toContain("Import tier of acme: scale.");
    expect((await cli("list-developers")).out).toMatch(/ acme {2}tier=scale/);
    const badTier = await cli("set-tier", "--developer", "acme", "--tier", "gold");
    expect(badTier.code).toBe(1);
    expect(badTier.err).toContain("--tier must be one of free, pro, scale, enterprise");
    expect((await cli("set-tier", "--developer", "acme")).err).toContain("--tier is required");
  }, 120_000);

  it("rotates the OpenID Connect signing key: published now, signing after the delay", async () => {
    const rotated = await cli("rotate-signing-key", "--delay-seconds", "600");
    expect(rotated.code).toBe(0);
    const [, kid, from] = /^Signing key (\S+) published; it signs from (\S+)\.$/m.exec(rotated.out)!;
    expect(Date.parse(from!) - Date.now()).toBeGreaterThan(590_000);
    const listed = (await cli("list-signing-keys")).out.trim().split("\n");
    // The key it replaces was made first, and still signs.
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatch(/ signing$/);
    expect(listed[1]).toBe(`${kid}  signs from ${from}  published, signs later`);
    for (const value of ["--delay-seconds=-5", "--delay-seconds=soon"]) {
      const bad = await cli("rotate-signing-key", value);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain("--delay-seconds must be a whole number of seconds, 0 or more");
    }
    const ambiguous = await cli("rotate-signing-key", "--delay-seconds", "-5");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toMatch(/^Error: Option '--delay-seconds' argument is ambiguous/);
  }, 60_000);

  it("rotates a key as the dashboard does: a new key printed once, the old one listed as rotated until the overlap ends", async () => {
    await cli("create-developer", "--name", "rotor");
    const issued = await cli("issue-key", "--developer", "rotor", "--kind", "secret", "--plane", "test");
    const keyId = issued.out.match(/\(id ([0-9a-f-]{36})\)/)![1]!;
    const rotated = await cli("rotate-key", "--developer", "rotor", "--key", keyId);
    expect(rotated.out).toMatch(/New test secret key \(id [0-9a-f-]{36}\)\. It is shown once/);
    expect(rotated.out).toMatch(/\bsk_test_[A-Za-z0-9]{32}\b/);
    expect(rotated.out).toContain("The old key works until");
    const listed = (await cli("list-keys", "--developer", "rotor")).out;
    expect(listed).toContain(`${keyId}  sk_test_`);
    expect(listed).toMatch(/rotated, works until/);
    expect((await cli("rotate-key", "--developer", "rotor", "--key", keyId)).err).toContain("No active, unrotated key with this id.");
  }, 120_000);

  it("turns a partner's phone-first order on and off, and asks for exactly one of --on and --off", async () => {
    expect((await cli("create-developer", "--name", "partner-co")).code).toBe(0);
    expect((await cli("set-partner-phone-first", "--developer", "partner-co", "--on")).out).toContain("Partner phone-first order for partner-co: on.");
    expect((await cli("set-partner-phone-first", "--developer", "partner-co", "--off")).out).toContain("Partner phone-first order for partner-co: off.");
    const neither = await cli("set-partner-phone-first", "--developer", "partner-co");
    expect(neither.code).toBe(1);
    expect(neither.err).toContain("give one of --on or --off");
    expect((await cli("set-partner-phone-first", "--developer", "partner-co", "--on", "--off")).err).toContain("give one of --on or --off");
  }, 120_000);

  it("explains its usage and rejects unknown commands and bad flags", async () => {
    const unknown = await cli("launch-rockets");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("Unknown command 'launch-rockets'");
    const missing = await cli("issue-key");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("--developer is required");
    const badKind = await cli("issue-key", "--developer", "nobody", "--kind", "secret");
    expect(badKind.err).toContain("No developer 'nobody'");
  }, 60_000);
});
