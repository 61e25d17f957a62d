// npm run build: packs the client library (packages/client) and the browser library (packages/browser)
// into SDK_DIR, the directory {BASE_URL}/sdk/v1/ serves (lib/sdk/files.ts), as
// profile-service-client-<version>.tgz and profile-service-browser-<version>.tgz, and writes the
// Python library (packages/python) beside it as profile_service-<version>-py3-none-any.whl. It is compiled
// (tsc -p tsconfig.build.json) and packed (npm pack) in a temporary directory, so the source tree keeps no
// build output; files already in SDK_DIR (older versions, the Python wheel) stay.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sdkDirSetting } from "../lib/env";
import { buildPythonWheel } from "./build-python-wheel.mjs";
import { npmTarballName } from "../lib/sdk/files";

const root = path.resolve(import.meta.dirname, "..");
// SDK_DIR as the server reads it (lib/env.ts), relative to the project root.
const outDir = path.resolve(root, sdkDirSetting());

function run(command: string, args: string[], cwd: string): string {
  const res = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

/** Compiles and packs one workspace package into SDK_DIR as <package>-<version>.tgz. */
function packPackage(dir: string, label: string) {
  const started = performance.now();
  const source = path.join(root, dir);
  const stage = mkdtempSync(path.join(tmpdir(), "service-sdk-"));
  try {
    run(
      process.execPath,
      [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(source, "tsconfig.build.json"), "--outDir", path.join(stage, "dist"), "--sourceMap", "false"],
      root,
    );
    // The published manifest: the package's own, without the scripts that only this repository runs.
    const manifest = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8")) as { name: string; version: string; scripts?: unknown; devDependencies?: unknown };
    const tarball = npmTarballName(manifest);
    delete manifest.scripts;
    delete manifest.devDependencies;
    writeFileSync(path.join(stage, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    copyFileSync(path.join(source, "README.md"), path.join(stage, "README.md"));
    const [packed] = JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", stage], stage)) as Array<{
      filename: string;
      size: number;
      entryCount: number;
    }>;
    if (packed?.filename !== tarball) throw new Error(`npm pack wrote ${packed?.filename}, not ${tarball} (lib/sdk/files.ts names the file the docs give)`);

    mkdirSync(outDir, { recursive: true });
    const target = path.join(outDir, tarball);
    const bytes = readFileSync(path.join(stage, packed.filename));
    const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    // One address, one file: caches keep a served file for a year, so a changed package needs a new version.
    if (existsSync(target) && sha256(readFileSync(target)) !== sha256(bytes)) {
      console.warn(`Warning: ${tarball} changed without a new version; caches that already hold it keep the old file. Raise the version in ${dir}/package.json.`);
    }
    // Renamed into place: a server reading the directory meanwhile sees the old file or the new one, whole.
    const partial = path.join(outDir, `.${tarball}.partial`);
    writeFileSync(partial, bytes);
    renameSync(partial, target);
    console.log(
      `${label}: ${manifest.name} ${manifest.version}, ${packed.entryCount} files, ${Math.round(bytes.byteLength / 1024)} KB → ${path.relative(root, target)} (${Math.round(performance.now() - started)} ms)`,
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

packPackage("packages/client", "Client library");
packPackage("packages/browser", "Browser library");

const wheelStarted = performance.now();
const wheel = await buildPythonWheel(outDir);
console.log(
  `Python library: ${wheel}, ${Math.round(statSync(path.join(outDir, wheel)).size / 1024)} KB → ${path.relative(root, path.join(outDir, wheel))} (${Math.round(performance.now() - wheelStarted)} ms)`,
);
