// The checked-in library reference is what the generator reads from the current sources.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../src/errors";
import { README_FILE, REFERENCE_FILE, renderReadme, renderReference, type Reference } from "../scripts/generate-reference";

describe("library reference", () => {
  const fresh = renderReference();
  const reference = JSON.parse(fresh) as Reference;

  it("matches the sources (run `npm run reference -w @profile-service/client` when this fails)", () => {
    expect(readFileSync(REFERENCE_FILE, "utf8")).toBe(fresh);
    const readme = readFileSync(README_FILE, "utf8");
    expect(readme).toBe(renderReadme(readme));
  });

  it("documents every profile method the spec names, with its route", () => {
    const client = reference.sections.find((s) => s.id === "client")!.entries.find((e) => e.name === "ProfileClient")!;
    const routes: Record<string, string> = {
      read: "GET /v1/profile:",
      search: "GET /v1/profile/search:",
      remember: "POST /v1/profile/remember:",
      forget: "POST /v1/profile/forget:",
      import: "POST /v1/profile/import:",
      commit: "POST /v1/profile/commit:",
      mcpSession: "POST /v1/profile/mcp-session:",
    };
    for (const [method, route] of Object.entries(routes)) {
      const member = client.members.find((m) => m.name === method);
      expect(member?.doc, method).toContain(route);
      expect(member?.signature, method).toMatch(new RegExp(`^${method}\\(input: `));
    }
  });

  it("gives every exported value a description", () => {
    const undocumented = reference.sections.flatMap((s) => s.entries.filter((e) => e.kind !== "type" && e.doc === "").map((e) => e.name));
    expect(undocumented).toEqual([]);
  });

  it("has one row per error code, each with the wire codes it comes from", () => {
    expect(reference.errors.map((e) => e.code)).toEqual([...ERROR_CODES]);
    const row = (code: string) => reference.errors.find((e) => e.code === code)!;
    expect(row("AUTH_REQUIRED").wire).toContain("agent_not_approved");
    expect(row("RATE_LIMITED")).toMatchObject({ anchor: "error-rate-limited", retryable: true, wire: ["rate_limited"] });
    expect(row("TOOL_ERROR")).toMatchObject({ retryable: false, wire: ["provider_error"] });
  });
});
