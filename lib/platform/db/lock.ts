// One process at a time on an embedded database: PGlite has no locking of its own, and two
// writers would corrupt the data directory.
import { openSync, readFileSync, rmSync, writeFileSync, closeSync } from "node:fs";

export class DatabaseInUseError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock file for this process; returns its release function. */
export function lockDataDir(lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => rmSync(lockFile, { force: true });
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(readFileSync(lockFile, "utf8"));
      if (holder && holder !== process.pid && alive(holder)) {
        throw new DatabaseInUseError(
          `The embedded database (${lockFile.replace(/\/[^/]+$/, "")}) is in use by process ${holder}. Stop it first, or use PostgreSQL (DATABASE_URL).`,
        );
      }
      // A lock left behind by a process that is gone.
      rmSync(lockFile, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock ${lockFile}.`);
}
