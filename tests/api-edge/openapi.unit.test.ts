// GET /openapi.json: the OpenAPI 3.1 document built from the route contracts. It validates with a
// maintained validator, covers every /v1, /oauth and /.well-known route with the methods it serves,
// and describes what each contract declares (credentials, parameters, bodies, answers).
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/openapi.json/route";
import { ROUTES } from "@/lib/http/route-manifest";

type Operation = {
  summary: string;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security: Array<Record<string, unknown>>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

async function document(): Promise<Document> {
  const res = GET();
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  return (await res.json()) as Document;
}

describe("GET /openapi.json", () => {
  it("validates as OpenAPI 3.1", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("covers every /v1, /oauth and /.well-known route, with the methods each serves", async () => {
    const doc = await document();
    // Every route the manifest lists there (tests/http/route-manifest.unit.test.ts holds it to the route files).
    const served = ROUTES.filter((r) => /^\/(v1|oauth|\.well-known)\//.test(r.path) && !r.path.includes("[...")).map(
      (r) => `${r.method} ${r.path.replace(/\[([^\]]+)\]/g, "{$1}")}`,
    );
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(served.length).toBeGreaterThanOrEqual(25);
    expect(documented).toEqual(expect.arrayContaining(served));
  });

  it("describes each contract: credentials, parameters, bodies and the answers it declares", async () => {
    const doc = await document();
    const remember = doc.paths["/v1/profile/remember"]!.post!;
    expect(remember.summary).toMatch(/\w/);
    expect(remember.security).toEqual([{ apiKey: [], bearer: [] }, { apiKey: [] }]);
    expect(remember.parameters?.map((p) => `${p.in} ${p.name} ${p.required}`)).toEqual([
      "header X-Agent true",
      "header X-User-Id false",
      "header X-Service-Conversation-Id false",
      "header X-Service-Turn-Id false",
    ]);
    // The turn-correlation headers are the profile routes' only: bulk import does not use them.
    const turnHeaders = (op: Operation | undefined) => (op?.parameters ?? []).filter((p) => p.name.startsWith("X-Service-")).length;
    for (const [path, method] of [
      ["/v1/profile", "get"],
      ["/v1/profile/search", "get"],
      ["/v1/profile/remember", "post"],
      ["/v1/profile/import", "post"],
      ["/v1/profile/forget", "post"],
      ["/v1/profile/commit", "post"],
    ] as const) {
      expect(turnHeaders(doc.paths[path]![method]), `${method} ${path}`).toBe(2);
    }
    expect(turnHeaders(doc.paths["/v1/import/profiles"]!.post)).toBe(0);
    expect(turnHeaders(doc.paths["/v1/profile/mcp-session"]!.post)).toBe(0);
    expect(Object.keys(remember.requestBody!.content["application/json"]!.schema.properties ?? {})).toContain("text");
    expect(Object.keys(remember.responses).sort()).toEqual(["200", "201", "400", "401", "403", "404", "409", "413", "415"]);
    // Each error status names the codes behind it, from the contract.
    expect((remember.responses["404"] as unknown as { description: string }).description).toBe("Not found: not_found, unknown_agent, unknown_user");
    expect((remember.responses["409"] as unknown as { description: string }).description).toBe("Conflict with the current state: agent_inactive");
    expect(remember.responses["201"]!.content!["application/json"]!.schema).toMatchObject({ properties: { livemode: { type: "boolean" } } });

    // A connector tool takes the person by bearer token only: X-User-Id is not one of its parameters.
    const tool = doc.paths["/v1/tools/service_gmail_search"]!.post!;
    expect(tool.security).toEqual([{ apiKey: [], bearer: [] }]);
    expect(tool.parameters?.map((p) => p.name)).toEqual(["X-Agent"]);

    const commitStatus = doc.paths["/v1/profile/commit/{commitId}"]!.get!;
    expect(commitStatus.parameters).toEqual(expect.arrayContaining([{ name: "commitId", in: "path", required: true, schema: { type: "string" } }]));

    const token = doc.paths["/oauth/token"]!.post!;
    expect(token.security).toEqual([{ clientBasic: [] }, {}]);
    expect(doc.paths["/oauth/userinfo"]!.get!.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/.well-known/jwks.json"]!.get!.security).toEqual([]);
    expect(Object.keys(token.requestBody!.content)).toEqual(["application/x-www-form-urlencoded"]);
    expect(token.responses["400"]!.content!["application/json"]!.schema).toMatchObject({ required: ["error", "error_description"] });
  });
});
