// The checked-in Python types are what the generator makes from the service's current OpenAPI document
// and the TypeScript client's error tables; the Python library's version is the TypeScript client's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serviceOpenApi } from "@/app/openapi.json/document";
import { ERROR_CODES } from "../../client/src/errors";
import clientPackage from "../../client/package.json";
import { GENERATED_PYTHON_FILE, PythonTypes, renderPython } from "../scripts/generate-types";

const PYTHON_DIR = path.resolve(import.meta.dirname, "..");

describe("generated Python types", () => {
  it("match the OpenAPI document (run `npm run generate:python` when this fails)", () => {
    const fresh = renderPython(serviceOpenApi().document);
    expect(readFileSync(GENERATED_PYTHON_FILE, "utf8")).toBe(fresh);
  });

  it("cover every route the library calls, and the thirteen error codes", () => {
    const source = readFileSync(GENERATED_PYTHON_FILE, "utf8");
    for (const op of [
      "GET /v1/profile",
      "GET /v1/profile/search",
      "POST /v1/profile/remember",
      "POST /v1/profile/forget",
      "POST /v1/profile/import",
      "POST /v1/profile/commit",
      "POST /v1/profile/mcp-session",
      "POST /v1/auth/sign-in/exchange",
      "POST /v1/auth/sign-in/validate",
    ]) {
      expect(source).toContain(`"${op}": {`);
    }
    expect(ERROR_CODES).toHaveLength(13);
    for (const code of ERROR_CODES) expect(source).toContain(`    "${code}",\n`);
  });

  it("read JSON Schema keywords as Python", () => {
    const t = new PythonTypes();
    expect(t.type({ type: ["string", "null"] }, "A")).toBe("str | None");
    expect(t.type({ anyOf: [{ const: "a" }, { enum: ["b", 1] }] }, "A")).toBe('Literal["a", "b", 1]');
    expect(t.type({ type: "array", items: { type: "integer" } }, "A")).toBe("list[int]");
    expect(t.type({ type: "object" }, "A")).toBe("dict[str, Any]");
    expect(t.type({}, "A")).toBe("Any");
    expect(t.type({ type: "object", properties: { ok: { const: true } }, required: ["ok"] }, "Answer")).toBe("Answer");
    expect(t.type({ type: "object", properties: { from: { type: "string" } } }, "Query")).toBe("Query");
    expect(t.classes).toEqual(["class Answer(TypedDict):\n    ok: Literal[True]", 'Query = TypedDict(\n    "Query",\n    {\n        "from": NotRequired[str],\n    },\n)']);
  });

  it("are versioned as the TypeScript client is", () => {
    const pyproject = readFileSync(path.join(PYTHON_DIR, "pyproject.toml"), "utf8");
    const version = readFileSync(path.join(PYTHON_DIR, "profile_service/_version.py"), "utf8");
    expect(pyproject).toMatch(new RegExp(`^version = "${clientPackage.version}"$`, "m"));
    expect(version).toContain(`__version__ = "${clientPackage.version}"`);
  });
});
