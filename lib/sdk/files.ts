// The SDK files the service hands out at {BASE_URL}/sdk/v1/<file>: the client library's npm tarball
// (packed by `npm run build`, scripts/build-sdk.ts) and the Python client's wheel, both left in SDK_DIR.
// Only a regular file directly in that directory whose name matches one of the strict patterns below is
// listed or served, so no other file of the disk is reachable from here. A file's name carries its
// version, so its answer is cached for good.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ApiError } from "../http/errors";
import { env } from "../env";
import { processWide } from "../process-wide";

/** Where the files are served: {BASE_URL}/sdk/v1/<file>. */
export const SDK_FILES_PATH = "/sdk/v1";
/** The listing of the files, as JSON (also answered at SDK_FILES_PATH itself). */
export const SDK_INDEX_PATH = `${SDK_FILES_PATH}/index.json`;
/** A file's name names its version: a new version is a new address, so one address never changes. */
export const SDK_FILE_CACHE = "public, max-age=31536000, immutable";
/** The listing changes with each build: caches ask again each time (its ETag makes that cheap). */
export const SDK_INDEX_CACHE = "public, no-cache";
/** The 404 for any other name. */
export const SDK_FILE_NOT_FOUND = `No such SDK file. ${SDK_INDEX_PATH} lists the files this service serves.`;
/** Larger files are neither listed nor served (each is read whole into memory). */
export const SDK_FILE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The kinds of file served, each with its name pattern: an npm tarball as `npm pack` names it
 * (<package>-<semver>.tgz), and a wheel as PEP 427 names it (<distribution>-<version>(-<build>)?-<python>-<abi>-<platform>.whl).
 * Neither admits a slash, a backslash, "..", or anything but letters, digits and . _ + -.
 */
const KINDS = {
  npm: {
    pattern: /^(?<package>[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)-(?<version>\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)\.tgz$/,
    contentType: "application/gzip",
    install: (url: string) => `npm install ${url}`,
  },
  python: {
    pattern:
      /^(?<package>[A-Za-z0-9](?:[A-Za-z0-9_]*[A-Za-z0-9])?)-(?<version>\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?(?:\+[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)?)-(?:\d[A-Za-z0-9_]*-)?[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*-[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*-[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*\.whl$/,
    contentType: "application/zip",
    install: (url: string) => `pip install ${url}`,
  },
} as const;
export type SdkFileKind = keyof typeof KINDS;

/** The name of a file the service may serve: one of the patterns above, at most 200 characters. */
export const sdkFileName = z
  .string()
  .max(200)
  .refine((name) => !name.includes("..") && Object.values(KINDS).some((k) => k.pattern.test(name)), "not an SDK file name");

/** One file as the listing describes it. */
export const sdkFileEntry = z.object({
  name: z.string(),
  kind: z.enum(["npm", "python"]),
  /** The package name as the file names it (profile-service-client, profile_service_client). */
  package: z.string(),
  version: z.string(),
  url: z.string(),
  content_type: z.string(),
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of the file: its ETag, and what pip's `#sha256=` checks. */
  sha256: z.string(),
  /** Subresource Integrity value (sha512-…), as npm records the file in package-lock.json. */
  integrity: z.string(),
  /** The command that installs it. */
  install: z.string(),
});
export type SdkFileEntry = z.infer<typeof sdkFileEntry>;
export const sdkIndexResponse = z.object({ files: z.array(sdkFileEntry) });
export type SdkIndex = z.infer<typeof sdkIndexResponse>;

interface Known {
  /** The file as it was when read: a changed size or modification time reads it again. */
  size: number;
  mtimeMs: number;
  bytes: Buffer;
  sha256: string;
  integrity: string;
}

/** What was read of each file, by its full path: one per process, read again when the file changes. */
const known = () => processWide("sdk.files", () => new Map<string, Known>());

function sdkDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ env().SDK_DIR);
}

function kindOf(name: string): { kind: SdkFileKind; package: string; version: string } | null {
  for (const [kind, spec] of Object.entries(KINDS) as [SdkFileKind, (typeof KINDS)[SdkFileKind]][]) {
    const m = spec.pattern.exec(name);
    if (m?.groups) return { kind, package: m.groups.package!, version: m.groups.version! };
  }
  return null;
}

/** The file named `name` in SDK_DIR, read (or taken from what was read), or null when there is no such regular file. */
async function readSdkFile(name: string): Promise<Known | null> {
  if (!sdkFileName.safeParse(name).success) return null;
  const file = path.join(sdkDir(), name);
  // lstat: a symbolic link is not a regular file, so a link out of the directory is never followed.
  const stat = await lstat(file).catch(() => null);
  if (!stat?.isFile() || stat.size > SDK_FILE_MAX_BYTES) return null;
  const cache = known();
  const held = cache.get(file);
  if (held && held.size === stat.size && held.mtimeMs === stat.mtimeMs) return held;
  const bytes = await readFile(file).catch(() => null);
  if (!bytes) return null;
  const read: Known = {
    size: bytes.byteLength,
    mtimeMs: stat.mtimeMs,
    bytes,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
  };
  cache.set(file, read);
  return read;
}

function entryOf(name: string, file: Known): SdkFileEntry {
  const { kind, package: pkg, version } = kindOf(name)!;
  const url = `${env().BASE_URL}${SDK_FILES_PATH}/${name}`;
  return {
    name,
    kind,
    package: pkg,
    version,
    url,
    content_type: KINDS[kind].contentType,
    size: file.size,
    sha256: file.sha256,
    integrity: file.integrity,
    install: KINDS[kind].install(url),
  };
}

/** Every file served, by kind then name. A directory that does not exist (no build ran) lists none. */
export async function listSdkFiles(): Promise<SdkFileEntry[]> {
  const names = await readdir(sdkDir(), { withFileTypes: true }).then(
    (entries) => entries.filter((e) => e.isFile()).map((e) => e.name),
    () => [] as string[],
  );
  const entries: SdkFileEntry[] = [];
  for (const name of names.sort()) {
    const file = await readSdkFile(name);
    if (file) entries.push(entryOf(name, file));
  }
  return entries.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

function notModified(req: Request, etag: string): boolean {
  const match = req.headers.get("if-none-match");
  return !!match && match.split(",").some((tag) => tag.trim() === "*" || tag.trim().replace(/^W\//, "") === etag);
}

/** GET and HEAD {BASE_URL}/sdk/v1/<file>: the file, cached for good; 404 (not_found) for any other name. */
export async function sdkFileAnswer(req: Request, name: string): Promise<Response> {
  const file = await readSdkFile(name);
  if (!file) throw new ApiError("not_found", SDK_FILE_NOT_FOUND);
  const { kind } = kindOf(name)!;
  const etag = `"${file.sha256}"`;
  const headers = new Headers({
    "Content-Type": KINDS[kind].contentType,
    "Content-Length": String(file.size),
    "Content-Disposition": `attachment; filename="${name}"`,
    "Cache-Control": SDK_FILE_CACHE,
    ETag: etag,
    // RFC 9530: the SHA-256 of the file, as a client may check it.
    "Repr-Digest": `sha-256=:${Buffer.from(file.sha256, "hex").toString("base64")}:`,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "cross-origin",
  });
  if (notModified(req, etag)) {
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(req.method === "HEAD" ? null : new Uint8Array(file.bytes), { status: 200, headers });
}

/** GET {BASE_URL}/sdk/v1/index.json (and /sdk/v1): every file served, with its version, size, SHA-256 and install command. */
export async function sdkIndexAnswer(req: Request): Promise<{ status: number; body?: SdkIndex; headers: Record<string, string> }> {
  const body: SdkIndex = { files: await listSdkFiles() };
  const etag = `"${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 27)}"`;
  const headers = { "Cache-Control": SDK_INDEX_CACHE, ETag: etag, "X-Content-Type-Options": "nosniff" };
  return notModified(req, etag) ? { status: 304, headers } : { status: 200, body, headers };
}

/** An npm package's tarball as `npm pack` names it: @profile-service/client 0.1.0 → profile-service-client-0.1.0.tgz. */
export function npmTarballName(pkg: { name: string; version: string }): string {
  return `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`;
}

/** Where this service serves a package's tarball, as the docs give it ({BASE_URL}/sdk/v1/profile-service-client-<version>.tgz). */
export function npmTarballUrl(pkg: { name: string; version: string }): string {
  return `${env().BASE_URL}${SDK_FILES_PATH}/${npmTarballName(pkg)}`;
}
