// The wheel Node writes for the Python library: a valid zip whose RECORD matches its files, the same
// bytes on every build, and a package pip installs and Python imports.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_NAME, PYTHON_PACKAGE_DIR, buildPythonWheel, pythonProject, recordDigest, wheelFileName } from "@/scripts/build-python-wheel.mjs";

const run = promisify(execFile);

/** The entries of a zip archive, read through its central directory, each checked against its CRC-32. */
function unzip(archive: Buffer): Array<{ name: string; bytes: Buffer; mode: number }> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    expect(archive.readUInt32LE(at)).toBe(0x02014b50);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const skip = archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
    const mode = archive.readUInt32LE(at + 38) >>> 16;
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    expect(archive.readUInt32LE(local)).toBe(0x04034b50);
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const bytes = method === 8 ? zlib.inflateRawSync(archive.subarray(dataAt, dataAt + size)) : archive.subarray(dataAt, dataAt + size);
    expect(zlib.crc32(bytes), name).toBe(crc);
    entries.push({ name, bytes, mode });
    at += 46 + nameLength + skip;
  }
  return entries;
}

let dir: string;
let wheel: string;
let version: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "python-wheel-"));
  version = (await pythonProject()).version;
  wheel = path.join(dir, await buildPythonWheel(dir));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the Python wheel", () => {
  it("is named for its version and tag, and holds the package's files and its dist-info, RECORD last", () => {
    expect(path.basename(wheel)).toBe(wheelFileName(version));
    expect(path.basename(wheel)).toBe(`profile_service-${version}-py3-none-any.whl`);
    const entries = unzip(readFileSync(wheel));
    const distInfo = `${IMPORT_NAME}-${version}.dist-info`;
    const sources = readdirSync(path.join(PYTHON_PACKAGE_DIR, IMPORT_NAME))
      .filter((f) => f.endsWith(".py") || f === "py.typed")
      .sort();
    expect(entries.map((e) => e.name)).toEqual([
      ...sources.map((f) => `${IMPORT_NAME}/${f}`),
      `${distInfo}/METADATA`,
      `${distInfo}/WHEEL`,
      `${distInfo}/top_level.txt`,
      `${distInfo}/RECORD`,
    ]);
    for (const f of sources) expect(entries.find((e) => e.name === `${IMPORT_NAME}/${f}`)!.bytes.equals(readFileSync(path.join(PYTHON_PACKAGE_DIR, IMPORT_NAME, f)))).toBe(true);
    expect(new Set(entries.map((e) => e.mode))).toEqual(new Set([0o100644]));
    const text = (name: string) => entries.find((e) => e.name === `${distInfo}/${name}`)!.bytes.toString("utf8");
    expect(text("WHEEL")).toContain("Root-Is-Purelib: true\n");
    expect(text("WHEEL")).toContain("Tag: py3-none-any\n");
    expect(text("METADATA")).toMatch(new RegExp(`^Metadata-Version: 2\\.1\nName: profile-service\nVersion: ${version.replace(/\./g, "\\.")}\n`));
    expect(text("METADATA")).toContain("Requires-Python: >=3.11\n");
    expect(text("top_level.txt")).toBe("profile_service\n");
  });

  it("has a RECORD whose digests and sizes match every other entry", () => {
    const entries = unzip(readFileSync(wheel));
    const record = entries.at(-1)!;
    const rows = record.bytes.toString("utf8").trimEnd().split("\n");
    expect(rows.at(-1)).toBe(`${record.name},,`);
    const listed = new Map(rows.slice(0, -1).map((row) => [row.split(",")[0], row]));
    expect(listed.size).toBe(entries.length - 1);
    for (const e of entries.slice(0, -1)) {
      expect(listed.get(e.name)).toBe(`${e.name},${recordDigest(e.bytes)},${e.bytes.length}`);
      expect(recordDigest(e.bytes)).toMatch(/^sha256=[A-Za-z0-9_-]{43}$/);
    }
  });

  it("is the same bytes when built again", async () => {
    const again = mkdtempSync(path.join(tmpdir(), "python-wheel-"));
    try {
      const file = await buildPythonWheel(again);
      expect(readFileSync(path.join(again, file)).equals(readFileSync(wheel))).toBe(true);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it("installs with pip and imports", async () => {
    const target = path.join(dir, "site");
    await run("python3", ["-m", "zipfile", "-t", wheel]);
    await run("python3", ["-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check", "--target", target, wheel]);
    // `python3 -c` looks in its working directory first: the pip target, not the repository.
    const { stdout } = await run("python3", ["-c", "import profile_service as p; print(p.__version__); print(p.__file__); print(len(p.ERROR_CODES))"], { cwd: target });
    expect(stdout.trim().split("\n")).toEqual([version, path.join(target, IMPORT_NAME, "__init__.py"), "13"]);
  }, 60_000);
});
