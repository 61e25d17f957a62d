// The Node.js the service runs on: the version package.json's engines names, or later. Node 20 reached
// its end of life in April 2026, and the job queue (pg-boss) and Prisma's tooling need 22.12. npm start,
// npm run build, npm run dev, npm run worker and npm test refuse an older one at once, saying so, rather
// than failing later in a dependency.
import { readFileSync } from "node:fs";

/** The oldest Node.js the service supports: package.json's `engines.node` (">=major.minor"). */
export function requiredNode(packageJsonPath = new URL("../package.json", import.meta.url)) {
  const range = JSON.parse(readFileSync(packageJsonPath, "utf8")).engines.node;
  const m = /^>=(\d+)\.(\d+)$/.exec(range);
  if (!m) throw new Error(`package.json's engines.node must read ">=major.minor", not ${JSON.stringify(range)}`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** Whether `version` ("22.12.0", as process.versions.node) is the required one or later. */
export function supportsNode(version, required = requiredNode()) {
  const [major, minor] = version.split(".").map(Number);
  return major > required.major || (major === required.major && minor >= required.minor);
}

/** Exits with a message when this Node.js is older than the required one. */
export function requireSupportedNode() {
  const required = requiredNode();
  if (supportsNode(process.versions.node, required)) return;
  console.error(
    `The service needs Node.js ${required.major}.${required.minor} or later; this is ${process.version}.\n` +
      `Install a current Node.js ${required.major} LTS (https://nodejs.org/en/download), then run the command again.`,
  );
  process.exit(1);
}
