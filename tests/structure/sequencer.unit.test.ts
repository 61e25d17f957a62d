// The files tests/sequencer.ts starts first exist, each once.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LONG_FILES_FIRST } from "../sequencer";

describe("the long files started first", () => {
  it("are test files that exist, each named once", () => {
    for (const file of LONG_FILES_FIRST) expect(existsSync(file), file).toBe(true);
    expect(new Set(LONG_FILES_FIRST).size).toBe(LONG_FILES_FIRST.length);
    expect(LONG_FILES_FIRST.every((f) => f.endsWith(".test.ts"))).toBe(true);
  });
});
