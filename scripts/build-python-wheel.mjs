// The Python client library (packages/python) as a wheel, written by Node alone: no Python at build time.
// A wheel is a zip of the package's files and a `*.dist-info/` folder (METADATA, WHEEL, top_level.txt,
// RECORD with each file's sha256). The zip is deterministic: entries sorted, fixed timestamps, fixed
// permissions, so the same sources give the same bytes.
//
//   node scripts/build-python-wheel.mjs <outDir>    writes <outDir>/profile_service-<version>-py3-none-any.whl
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

/** The Python library's folder: pyproject.toml, README.md and the import package. */
export const PYTHON_PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../packages/python");
/** The import name: the folder the wheel installs into site-packages. */
export const IMPORT_NAME = "profile_service";
/** The wheel's tag: pure Python 3, any interpreter build, any platform. */
export const WHEEL_TAG = "py3-none-any";

// 1980-01-01 00:00, the earliest time a zip entry can carry, in MS-DOS date and time fields.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
// A regular file, rw-r--r--, in the upper half of the external attributes (the creator is Unix).
const UNIX_FILE_MODE = 0o100644;
const MADE_BY_UNIX = (3 << 8) | 20;
const VERSION_NEEDED = 20;
const METHOD_DEFLATE = 8;

/** The [project] fields of pyproject.toml the wheel's METADATA needs (simple `key = "value"` lines). */
export async function pythonProject(dir = PYTHON_PACKAGE_DIR) {
  const text = await readFile(path.join(dir, "pyproject.toml"), "utf8");
  const section = text.split(/^\[project\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  const field = (name) => {
    const match = section.match(new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m"));
    if (!match) throw new Error(`pyproject.toml has no [project] ${name}`);
    return match[1];
  };
  return { name: field("name"), version: field("version"), description: field("description"), requiresPython: field("requires-python") };
}

/** The wheel's file name for a version: `profile_service-<version>-py3-none-any.whl`. */
export function wheelFileName(version) {
  return `${IMPORT_NAME}-${version}-${WHEEL_TAG}.whl`;
}

/** sha256 as RECORD writes it: URL-safe base64 without padding. */
export function recordDigest(bytes) {
  return `sha256=${createHash("sha256").update(bytes).digest("base64url")}`;
}

async function packageFiles(dir, prefix) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.endsWith(".pyc")) continue;
    const full = path.join(dir, entry.name);
    const name = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await packageFiles(full, name)));
    else if (entry.isFile()) out.push({ name, bytes: await readFile(full) });
  }
  return out;
}

function metadata(project, readme) {
  return [
    "Metadata-Version: 2.1",
    `Name: ${project.name}`,
    `Version: ${project.version}`,
    `Summary: ${project.description}`,
    `Requires-Python: ${project.requiresPython}`,
    "Classifier: Programming Language :: Python :: 3",
    "Classifier: Programming Language :: Python :: 3 :: Only",
    "Classifier: Typing :: Typed",
    "Description-Content-Type: text/markdown",
    "",
    readme,
  ].join("\n");
}

function wheelInfo() {
  return ["Wheel-Version: 1.0", "Generator: profile-service scripts/build-python-wheel.mjs", "Root-Is-Purelib: true", `Tag: ${WHEEL_TAG}`, ""].join("\n");
}

/** The zip archive of the entries, in the order given. */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, bytes } of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const data = zlib.deflateRawSync(bytes, { level: 9 });
    const crc = zlib.crc32(bytes);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(METHOD_DEFLATE, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(bytes.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    central.writeUInt16LE(VERSION_NEEDED, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(METHOD_DEFLATE, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(bytes.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    // Extra field, comment, disk number and internal attributes stay 0.
    central.writeUInt32LE((UNIX_FILE_MODE << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The wheel's entries: the package's files (sorted), then its dist-info, RECORD last. */
export async function wheelEntries(dir = PYTHON_PACKAGE_DIR) {
  const project = await pythonProject(dir);
  const distInfo = `${IMPORT_NAME}-${project.version}.dist-info`;
  const files = (await packageFiles(path.join(dir, IMPORT_NAME), IMPORT_NAME)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const readme = await readFile(path.join(dir, "README.md"), "utf8");
  files.push(
    { name: `${distInfo}/METADATA`, bytes: Buffer.from(metadata(project, readme), "utf8") },
    { name: `${distInfo}/WHEEL`, bytes: Buffer.from(wheelInfo(), "utf8") },
    { name: `${distInfo}/top_level.txt`, bytes: Buffer.from(`${IMPORT_NAME}\n`, "utf8") },
  );
  const record = [...files.map((f) => `${f.name},${recordDigest(f.bytes)},${f.bytes.length}`), `${distInfo}/RECORD,,`, ""].join("\n");
  files.push({ name: `${distInfo}/RECORD`, bytes: Buffer.from(record, "utf8") });
  return { project, entries: files };
}

/** Writes the wheel into `outDir` (created if missing) and returns its file name. */
export async function buildPythonWheel(outDir) {
  const { project, entries } = await wheelEntries();
  const file = wheelFileName(project.version);
  await mkdir(outDir, { recursive: true });
  // Renamed into place: a server reading the directory meanwhile sees the old file or the new one, whole.
  const partial = path.join(outDir, `.${file}.partial`);
  await writeFile(partial, zip(entries));
  await rename(partial, path.join(outDir, file));
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error("usage: node scripts/build-python-wheel.mjs <outDir>");
    process.exit(2);
  }
  const file = await buildPythonWheel(outDir);
  console.log(path.join(outDir, file));
}
