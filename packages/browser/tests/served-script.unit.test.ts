// The served script: one minified file within 8 KB gzipped, answered at /sdk/v1/service-sso.js with the
// right type, open CORS and immutable caching under its version, and the integrity value the docs print.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GET, HEAD } from "@/app/sdk/v1/service-sso.js/route";
import { buildSsoScript, describeSsoScript, SSO_SCRIPT_GZIP_BUDGET } from "@/lib/sdk/sso-script";

describe("the sign-in button script", () => {
  it("is within 8 KB gzipped", async () => {
    const code = await buildSsoScript();
    const gzipped = gzipSync(code).length;
    console.log(`service-sso.js: ${code.length} bytes minified, ${gzipped} bytes gzipped (budget ${SSO_SCRIPT_GZIP_BUDGET})`);
    expect(gzipped).toBeLessThanOrEqual(8192);
    expect(code).toContain("service-sso-button");
    expect(code.split("\n").filter(Boolean).length).toBeLessThanOrEqual(2);
  });

  it("is served as JavaScript to any origin, immutable under its version, with an ETag", async () => {
    const bare = await GET(new Request("http://localhost:3000/sdk/v1/service-sso.js"));
    expect(bare.status).toBe(200);
    expect(bare.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(bare.headers.get("access-control-allow-origin")).toBe("*");
    expect(bare.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=3600");
    const code = await bare.text();
    const { version } = describeSsoScript(code);
    const pinned = await GET(new Request(`http://localhost:3000/sdk/v1/service-sso.js?v=${version}`));
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await pinned.text()).toBe(code);
    const again = await GET(new Request("http://localhost:3000/sdk/v1/service-sso.js", { headers: { "if-none-match": `"${version}"` } }));
    expect(again.status).toBe(304);
    const head = await HEAD(new Request("http://localhost:3000/sdk/v1/service-sso.js", { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("matches the version and integrity value printed in docs/browser-helper.md", async () => {
    const { version, integrity } = describeSsoScript(await buildSsoScript());
    const doc = readFileSync("docs/browser-helper.md", "utf8");
    expect(doc, "docs/browser-helper.md must name the current ?v= and sha384 (npm run build prints them)").toContain(`service-sso.js?v=${version}`);
    expect(doc).toContain(integrity);
  });
});
