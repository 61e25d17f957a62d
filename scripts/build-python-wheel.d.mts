/** One file of a zip archive: its name inside the archive and its bytes. */
export interface ZipEntry {
  name: string;
  bytes: Buffer;
}
/** The Python library's folder: pyproject.toml, README.md and the import package. */
export declare const PYTHON_PACKAGE_DIR: string;
/** The import name: the folder the wheel installs into site-packages. */
export declare const IMPORT_NAME: string;
/** The wheel's tag: pure Python 3, any interpreter build, any platform. */
export declare const WHEEL_TAG: string;
/** The [project] fields of pyproject.toml the wheel's METADATA needs. */
export declare function pythonProject(dir?: string): Promise<{ name: string; version: string; description: string; requiresPython: string }>;
/** The wheel's file name for a version: `profile_service-<version>-py3-none-any.whl`. */
export declare function wheelFileName(version: string): string;
/** sha256 as RECORD writes it: `sha256=` and URL-safe base64 without padding. */
export declare function recordDigest(bytes: Buffer): string;
/** The zip archive of the entries, in the order given. */
export declare function zip(entries: ZipEntry[]): Buffer;
/** The wheel's entries: the package's files (sorted), then its dist-info, RECORD last. */
export declare function wheelEntries(dir?: string): Promise<{ project: { name: string; version: string }; entries: ZipEntry[] }>;
/** Writes the wheel into `outDir` (created if missing) and returns its file name. */
export declare function buildPythonWheel(outDir: string): Promise<string>;
