// Configuration: defaults for embedded mode, validation, and secrets generated once or required.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "@/lib/env";

describe("loadEnv", () => {
  it("defaults every address to localhost:3000, path-based", () => {
    const e = loadEnv({ DATA_DIR: "memory://" });
    expect(e.BASE_URL).toBe("http://localhost:3000");
    expect(e.SIGN_IN_URL).toBe("http://localhost:3000/sign-in");
    expect(e.MCP_URL).toBe("http://localhost:3000/personal-mcp");
    expect(e.embedded).toBe(true);
    expect(e.DATABASE_URL).toBeUndefined();
  });

  it("accepts separate hosts and strips trailing slashes", () => {
    const e = loadEnv({ DATA_DIR: "memory://", BASE_URL: "https://api.example.com/", MCP_URL: "https://mcp.example.com", SIGN_IN_URL: "https://signin.example.com/" });
    expect(e).toMatchObject({ BASE_URL: "https://api.example.com", MCP_URL: "https://mcp.example.com", SIGN_IN_URL: "https://signin.example.com" });
  });

  it("names each invalid setting", () => {
    expect(() => loadEnv({ BASE_URL: "not a url", DATABASE_URL: "mysql://x", REDIS_URL: "http://x" })).toThrow(ConfigError);
    try {
      loadEnv({ BASE_URL: "not a url", DATABASE_URL: "mysql://x" });
    } catch (err) {
      expect((err as Error).message).toContain("BASE_URL");
      expect((err as Error).message).toContain("DATABASE_URL");
    }
  });

  it("generates secrets once in embedded mode and keeps them in the data directory", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "env-"));
    const first = loadEnv({ DATA_DIR: dir });
    const second = loadEnv({ DATA_DIR: dir });
    expect(first.SERVICE_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.SERVICE_SECRET).toBe(first.SERVICE_SECRET);
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET);
    const file = path.join(dir, "secrets.json");
    expect(JSON.parse(readFileSync(file, "utf8")).SERVICE_SECRET).toBe(first.SERVICE_SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("requires the secrets in production with PostgreSQL", () => {
    expect(() => loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" })).toThrow(/SERVICE_SECRET and AUTH_SECRET are required/);
    const s = "x".repeat(32);
    expect(loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SERVICE_SECRET: s, AUTH_SECRET: s }).embedded).toBe(false);
    expect(() => loadEnv({ SERVICE_SECRET: "short" })).toThrow(/SERVICE_SECRET/);
  });

  it("chooses the built-in distiller by default and needs an endpoint and a model for the LLM one", () => {
    expect(loadEnv({ DATA_DIR: "memory://" }).DISTILLER).toBe("builtin");
    expect(() => loadEnv({ DATA_DIR: "memory://", DISTILLER: "llm", LLM_MODEL: "llama3.1" })).toThrow(
      "DISTILLER=llm needs LLM_BASE_URL and LLM_MODEL.",
    );
    expect(() => loadEnv({ DATA_DIR: "memory://", DISTILLER: "magic" })).toThrow(/DISTILLER/);
    const e = loadEnv({ DATA_DIR: "memory://", DISTILLER: "llm", LLM_BASE_URL: "http://127.0.0.1:11434/v1/", LLM_MODEL: "llama3.1" });
    expect(e).toMatchObject({ DISTILLER: "llm", LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "llama3.1" });
  });
});
