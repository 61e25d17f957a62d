// The checked-in types are what the generator makes from the service's current OpenAPI document.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serviceOpenApi } from "@/app/openapi.json/document";
import { GENERATED_FILE, renderTypes, tsType } from "../scripts/generate-types";

describe("generated types", () => {
  it("match the OpenAPI document (run `npm run generate -w @profile-service/client` when this fails)", () => {
    const fresh = renderTypes(serviceOpenApi().document);
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(fresh);
  });

  it("cover every profile route the client calls", () => {
    const source = readFileSync(GENERATED_FILE, "utf8");
    for (const op of [
      "GET /v1/profile",
      "GET /v1/profile/search",
      "POST /v1/profile/remember",
      "POST /v1/profile/forget",
      "POST /v1/profile/import",
      "POST /v1/profile/commit",
      "POST /v1/profile/mcp-session",
    ]) {
      expect(source).toContain(`"${op}": {`);
    }
  });

  it("read JSON Schema keywords as TypeScript", () => {
    expect(tsType({ type: ["string", "null"] })).toBe("string | null");
    expect(tsType({ anyOf: [{ const: "a" }, { enum: ["b", 1] }] })).toBe('"a" | "b" | 1');
    expect(tsType({ type: "array", items: { type: "integer" } })).toBe("Array<number>");
    expect(tsType({ type: "object", properties: { "a-b": { type: "boolean" } }, required: ["a-b"], additionalProperties: false })).toBe('{\n  "a-b": boolean;\n}');
    expect(tsType({ type: "object" })).toBe("{\n  [key: string]: unknown;\n}");
    expect(tsType({})).toBe("unknown");
  });
});
