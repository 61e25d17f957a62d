// The Node.js the service requires: one rule, read from package.json's engines, applied by npm start,
// build, dev, worker and test before anything else runs.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { requiredNode, supportsNode } from "../../scripts/node-version.mjs";

describe("the required Node.js", () => {
  it("is package.json's engines.node, 22.12 or later", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(">=22.12");
    expect(requiredNode()).toEqual({ major: 22, minor: 12 });
  });

  it("accepts that version and later ones, and refuses older ones", () => {
    const required = { major: 22, minor: 12 };
    for (const v of ["22.12.0", "22.23.3", "23.0.0", "24.11.1"]) expect(supportsNode(v, required), v).toBe(true);
    for (const v of ["20.20.2", "22.11.0", "21.7.3", "18.20.8"]) expect(supportsNode(v, required), v).toBe(false);
  });

  it("is what this process runs on", () => {
    expect(supportsNode(process.versions.node)).toBe(true);
  });

  it("an older Node.js is refused at once with what to install, before anything starts", () => {
    // The check itself, run as the commands run it, with a required version above this one.
    const script = `import { requireSupportedNode } from "./scripts/node-version.mjs"; Object.defineProperty(process.versions, "node", { value: "20.20.2" }); requireSupportedNode(); console.log("started");`;
    const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(res.status).toBe(1);
    expect(res.stdout).not.toContain("started");
    expect(res.stderr).toContain("The service needs Node.js 22.12 or later");
  });
});
