// Configuration: defaults for embedded mode, validation, and secrets generated once or required.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "@/lib/env";

const PRODUCTION_DRIVERS = {
  SMS_DRIVER: "twilio",
  TWILIO_ACCOUNT_SID: "AC1",
  TWILIO_AUTH_TOKEN: "t",
  TWILIO_FROM: "+15005550006",
  EMAIL_DRIVER: "smtp",
  SMTP_URL: "smtp://mail.example.com:587",
  SMS_COUNTRIES: "US,CA",
};

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
    expect(() => loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", ...PRODUCTION_DRIVERS })).toThrow(/SERVICE_SECRET and AUTH_SECRET are required/);
    const s = "x".repeat(32);
    expect(loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SERVICE_SECRET: s, AUTH_SECRET: s, ...PRODUCTION_DRIVERS }).embedded).toBe(false);
    expect(() => loadEnv({ SERVICE_SECRET: "short" })).toThrow(/SERVICE_SECRET/);
  });

  it("chooses the built-in distiller by default and needs an endpoint and a model for the LLM one", () => {
    expect(loadEnv({ DATA_DIR: "memory://" }).DISTILLER).toBe("builtin");
    expect(() => loadEnv({ DATA_DIR: "memory://", DISTILLER: "llm", LLM_MODEL: "llama3.1" })).toThrow("DISTILLER=llm needs LLM_BASE_URL and LLM_MODEL.");
    expect(() => loadEnv({ DATA_DIR: "memory://", DISTILLER: "magic" })).toThrow(/DISTILLER/);
    const e = loadEnv({ DATA_DIR: "memory://", DISTILLER: "llm", LLM_BASE_URL: "http://127.0.0.1:11434/v1/", LLM_MODEL: "llama3.1" });
    expect(e).toMatchObject({ DISTILLER: "llm", LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "llama3.1" });
  });

  it("keeps the development surfaces to development mode: on the embedded database by default, never by default on PostgreSQL", () => {
    const s = "x".repeat(32);
    const postgres = { NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SERVICE_SECRET: s, AUTH_SECRET: s };
    expect(loadEnv({ DATA_DIR: "memory://" })).toMatchObject({ developmentMode: true, SMS_DRIVER: "outbox", EMAIL_DRIVER: "outbox", CONNECT_DRIVER: "development" });
    // The defaults alone on PostgreSQL: refused, naming every setting to change.
    let message = "";
    try {
      loadEnv(postgres);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain("SMS_DRIVER=outbox (the default)");
    expect(message).toContain("EMAIL_DRIVER=outbox (the default)");
    expect(message).toContain("DEVELOPMENT_MODE=true");
    expect(() => loadEnv({ ...postgres, ...PRODUCTION_DRIVERS, EMAIL_DRIVER: "outbox" })).toThrow(/EMAIL_DRIVER=outbox keeps address codes readable/);
    expect(() => loadEnv({ ...postgres, ...PRODUCTION_DRIVERS, CONNECT_DRIVER: "development" })).toThrow(/CONNECT_DRIVER=development/);
    expect(loadEnv({ ...postgres, ...PRODUCTION_DRIVERS })).toMatchObject({ developmentMode: false, CONNECT_DRIVER: "providers" });
    // Explicitly on: a shared development database may keep the outboxes.
    expect(loadEnv({ ...postgres, DEVELOPMENT_MODE: "true" })).toMatchObject({ developmentMode: true, SMS_DRIVER: "outbox", CONNECT_DRIVER: "development" });
    // Explicitly off on the embedded database: the same rule.
    expect(() => loadEnv({ DATA_DIR: "memory://", DEVELOPMENT_MODE: "false" })).toThrow(/SMS_DRIVER=outbox/);
    expect(() => loadEnv({ DATA_DIR: "memory://", DEVELOPMENT_MODE: "yes" })).toThrow(/DEVELOPMENT_MODE/);
  });

  it("requires SMS_COUNTRIES outside development mode, naming it; development mode may leave it open", () => {
    const s = "x".repeat(32);
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SERVICE_SECRET: s, AUTH_SECRET: s, ...PRODUCTION_DRIVERS };
    const { SMS_COUNTRIES: _set, ...withoutCountries } = production;
    expect(() => loadEnv(withoutCountries)).toThrow(/SMS_COUNTRIES unset lets sign-in codes be texted to every country: set SMS_COUNTRIES/);
    expect(() => loadEnv({ ...withoutCountries, SMS_COUNTRIES: "" })).toThrow(/SMS_COUNTRIES/);
    expect(loadEnv(production).SMS_COUNTRIES).toEqual(["US", "CA"]);
    expect(loadEnv({ DATA_DIR: "memory://" }).SMS_COUNTRIES).toBeUndefined();
  });

  it("listens on 127.0.0.1 in development mode and on every interface outside it, unless HOSTNAME says", () => {
    const s = "x".repeat(32);
    const production = { NODE_ENV: "production", DATABASE_URL: "postgres://db/x", SERVICE_SECRET: s, AUTH_SECRET: s, ...PRODUCTION_DRIVERS };
    expect(loadEnv({ DATA_DIR: "memory://" }).HOSTNAME).toBe("127.0.0.1");
    expect(loadEnv({ DATA_DIR: "memory://", HOSTNAME: "0.0.0.0" }).HOSTNAME).toBe("0.0.0.0");
    expect(loadEnv(production).HOSTNAME).toBe("0.0.0.0");
    expect(loadEnv({ ...production, HOSTNAME: "10.0.0.5" }).HOSTNAME).toBe("10.0.0.5");
  });

  it("drains idle connections 2 s after a shutdown signal, or half of SHUTDOWN_TIMEOUT_MS when that is less; a drain as long as the timeout is refused", () => {
    const base = { DATA_DIR: "memory://" };
    expect(loadEnv(base).SHUTDOWN_DRAIN_MS).toBe(2_000);
    expect(loadEnv({ ...base, SHUTDOWN_TIMEOUT_MS: "3000" }).SHUTDOWN_DRAIN_MS).toBe(1_500);
    expect(loadEnv({ ...base, SHUTDOWN_DRAIN_MS: "0" }).SHUTDOWN_DRAIN_MS).toBe(0);
    expect(loadEnv({ ...base, SHUTDOWN_DRAIN_MS: "5000" }).SHUTDOWN_DRAIN_MS).toBe(5_000);
    expect(() => loadEnv({ ...base, SHUTDOWN_DRAIN_MS: "10000" })).toThrow(
      new ConfigError("Invalid configuration:\n  SHUTDOWN_DRAIN_MS=10000 must be less than SHUTDOWN_TIMEOUT_MS=10000: the requests a drain lets arrive need time to finish."),
    );
    expect(() => loadEnv({ ...base, SHUTDOWN_DRAIN_MS: "soon" })).toThrow(/SHUTDOWN_DRAIN_MS/);
  });
});
