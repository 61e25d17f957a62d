// The service's configuration: every setting, its default for embedded mode, validated once with zod.
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { processWideSlot } from "./process-wide";

const url = z
  .string()
  .url()
  .transform((u) => u.replace(/\/+$/, ""));
/** Unset and empty are the same: absent. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));
const optionalUrl = optionalString.pipe(url.optional());
const secret = z.string().min(32, "must be at least 32 characters");

/** Where `npm run build` leaves the SDK files {BASE_URL}/sdk/v1/ serves (SDK_DIR's default, from the project root). */
export const DEFAULT_SDK_DIR = ".sdk/v1";

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  /** How long a shutdown (SIGTERM, SIGINT) lets requests and work finish before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * How long, after SIGTERM or SIGINT, idle kept-alive connections stay open while the load balancer
   * sees readiness fail and stops sending on them: closing one earlier can race a request it is being
   * sent. 2 s (or half of SHUTDOWN_TIMEOUT_MS, if less) by default.
   */
  SHUTDOWN_DRAIN_MS: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(600_000).optional()),
  /** The address the server listens on: 127.0.0.1 in development mode, every interface (0.0.0.0) outside it. */
  HOSTNAME: optionalString,
  /** How many server processes npm start runs, sharing PORT: one per core on PostgreSQL; the embedded database serves one. */
  WEB_CONCURRENCY: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(64).optional()),
  /** Where Prometheus reads /metrics (a port of its own, never behind the load balancer); unset, none is served. */
  METRICS_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(65_535).optional()),
  /** The address METRICS_PORT listens on: HOSTNAME's by default. */
  METRICS_HOST: optionalString,
  /** Where traces go over OTLP/HTTP (the collector's base URL; /v1/traces is added); unset, none are made. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** The service.name traces carry. */
  OTEL_SERVICE_NAME: z.string().min(1).default("profile-service"),
  BASE_URL: url.default("http://localhost:3000"),
  MCP_URL: optionalUrl,
  SIGN_IN_URL: optionalUrl,
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
  ),
  DATA_DIR: z.string().default(".data"),
  // The directory whose SDK files (the client library's npm tarball, the Python wheel) are served at
  // {BASE_URL}/sdk/v1/<file>; `npm run build` packs the client library into it.
  SDK_DIR: optionalString.pipe(z.string().min(1).default(DEFAULT_SDK_DIR)),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .optional(),
  ),
  // Prefix of the rate-limit keys in Redis: deployments sharing one Redis keep their counts apart.
  RATE_LIMIT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,64}$/, "letters, digits, _ - : only")
    .default("rl"),
  SERVICE_SECRET: secret.optional(),
  AUTH_SECRET: secret.optional(),
  // Defaults to info, or silent under NODE_ENV=test.
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  // Write each log line before going on (true), instead of in the background: slower, but a process
  // that is killed loses no line and a busy one never holds lines back. Off by default.
  LOG_SYNC: z.enum(["true", "false"]).default("false"),
  // Milliseconds a resolved API key may be served from the in-process cache (revocation bound).
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  // Requests one IP address may make per minute to /oauth/* and /v1/sso/* together.
  OAUTH_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(100),
  // New localhost callbacks one publishable key may register per hour through POST /v1/sso/client.
  SSO_LOCALHOST_CALLBACKS_PER_HOUR: z.coerce.number().int().positive().default(5),
  // Hosted flows one IP address (an IPv6 /64) may start per hour: sign-up, connect links and authorize.
  FLOWS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(300),
  // Previews of an import (a pasted answer or an export file) one hosted flow may ask for.
  PREVIEWS_PER_FLOW: z.coerce.number().int().positive().default(20),
  // Previews of an import one IP address (an IPv6 /64) may ask for per hour, across flows.
  PREVIEWS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(60),
  // Export files over 1 MiB one process reads at once; another browser meanwhile is told to try again shortly.
  LARGE_PREVIEWS_AT_ONCE: z.coerce.number().int().min(1).max(64).default(2),
  // Whether this installation has the connect flow for partner links (POST /v1/flows/sessions): a
  // session created without `flow` opens it; "false" gives such sessions the import-only flow instead.
  PARTNER_CONNECT_FLOW: z.enum(["true", "false"]).default("true"),
  // Sandboxes one IP address may provision per hour (POST /v1/sandbox/provision).
  SANDBOX_PROVISION_PER_HOUR: z.coerce.number().int().positive().default(20),
  // Where queued jobs (commits) run: in this process, or only in `npm run worker` processes.
  JOBS_WORKER: z.enum(["in-process", "off"]).default("in-process"),
  // How long a worker's claim on a bulk import job holds without renewal (it renews after every
  // chunk): a worker that dies is replaced this long after its last chunk.
  IMPORT_JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  // Users per bulk import chunk: one transaction each, the cancel flag read between them.
  IMPORT_JOB_CHUNK_USERS: z.coerce.number().int().min(1).max(1000).default(25),
  // Days the developer request log keeps each request (the dashboard's usage and search); the sweep deletes older rows.
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(400).default(30),
  // Which distiller turns conversations into memories (docs/distillation.md).
  DISTILLER: z.enum(["builtin", "llm"]).default("builtin"),
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  // Text messages (sign-in codes): "outbox" keeps them in the database, readable on /dev/outbox;
  // "twilio" sends them through Twilio's REST API.
  SMS_DRIVER: z.enum(["outbox", "twilio"]).default("outbox"),
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  // The sender: an E.164 number, or a Messaging Service SID (MG…).
  TWILIO_FROM: optionalString,
  TWILIO_API_BASE: url.default("https://api.twilio.com"),
  // Text messages (sign-in codes) the service may send per hour to each destination country, whoever
  // asks: a ceiling on cost that pumping one country's numbers cannot spend for the others.
  SMS_PER_HOUR: z.coerce.number().int().positive().default(1000),
  // Sign-in codes one IP address (an IPv6 /56) may ask for per hour.
  SMS_CODES_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(20),
  // Text messages one network (an IPv4 address, an IPv6 /48) may have sent per hour, across its addresses:
  // its share of SMS_PER_HOUR, so one network cannot spend the budget for everyone.
  SMS_PER_NETWORK_PER_HOUR: z.coerce.number().int().positive().default(50),
  // The countries text messages may go to, as ISO 3166 alpha-2 codes separated by commas. Required
  // outside development mode (unset there: every country).
  SMS_COUNTRIES: optionalString.pipe(
    z
      .string()
      .regex(/^\s*[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*\s*$/, "ISO 3166 alpha-2 codes separated by commas, e.g. US,CA,GB")
      .transform((v) => v.split(",").map((c) => c.trim().toUpperCase()))
      .optional(),
  ),
  // E-mail (address verification codes): "outbox" keeps messages in the database, readable on
  // /dev/email-outbox; "smtp" sends them through SMTP_URL (smtp:// or smtps://user:pass@host:port).
  EMAIL_DRIVER: z.enum(["outbox", "smtp"]).default("outbox"),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  EMAIL_FROM: z.string().default("Profile Service <no-reply@localhost>"),
  // App connections: "development" lets an app whose provider has no credentials connect through
  // /dev/connect (a stand-in consent page; nothing is fetched from any provider); "providers" offers
  // only apps whose provider is configured. Defaults to "development" on the embedded database (trying
  // the service locally) and to "providers" with DATABASE_URL (a deployment).
  CONNECT_DRIVER: z.enum(["development", "providers"]).optional(),
  // Google (Gmail, Calendar, Drive connections): an OAuth client of Google Cloud, and the endpoints
  // (defaults: Google's; tests point them at a local provider).
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: url.default("https://accounts.google.com"),
  GOOGLE_AUTHORIZATION_URL: url.default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: url.default("https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: url.default("https://openidconnect.googleapis.com/v1/userinfo"),
  GOOGLE_REVOCATION_URL: url.default("https://oauth2.googleapis.com/revoke"),
  GOOGLE_JWKS_URL: url.default("https://www.googleapis.com/oauth2/v3/certs"),
  // Google's REST APIs the connector tools call (defaults: Google's; tests point them at a local server).
  GMAIL_API_URL: url.default("https://gmail.googleapis.com"),
  GOOGLE_CALENDAR_API_URL: url.default("https://www.googleapis.com"),
  GOOGLE_DRIVE_API_URL: url.default("https://www.googleapis.com"),
  // GitHub sign-in (a third-party proof of the person's address): an OAuth app of GitHub, and its
  // addresses (defaults: github.com; GitHub Enterprise Server answers at <host> and <host>/api/v3).
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_URL: url.default("https://github.com"),
  GITHUB_API_URL: url.default("https://api.github.com"),
  // Microsoft (Outlook connections): an app registration of the Microsoft identity platform, and the
  // endpoints (defaults: the common tenant and Microsoft Graph).
  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  MICROSOFT_AUTHORIZATION_URL: url.default("https://login.microsoftonline.com/common/oauth2/v2.0/authorize"),
  MICROSOFT_TOKEN_URL: url.default("https://login.microsoftonline.com/common/oauth2/v2.0/token"),
  MICROSOFT_PROFILE_URL: url.default("https://graph.microsoft.com/v1.0/me"),
  // Microsoft Graph, which the Outlook connector tools call (tests point it at a local server).
  MICROSOFT_GRAPH_URL: url.default("https://graph.microsoft.com/v1.0"),
  // Notion connections: a public integration of Notion, and its OAuth endpoints.
  NOTION_CLIENT_ID: optionalString,
  NOTION_CLIENT_SECRET: optionalString,
  NOTION_AUTHORIZATION_URL: url.default("https://api.notion.com/v1/oauth/authorize"),
  NOTION_TOKEN_URL: url.default("https://api.notion.com/v1/oauth/token"),
  NOTION_REVOCATION_URL: url.default("https://api.notion.com/v1/oauth/revoke"),
  // Notion's REST API (its /search), which the Notion connector tool calls (tests point it at a local server).
  NOTION_API_URL: url.default("https://api.notion.com/v1"),
  // The development surfaces (the outbox drivers, /dev/* pages, the stand-in consent page): "true" on the
  // embedded database (trying the service locally), "false" with DATABASE_URL. Outside development mode
  // a development driver refuses to start, and /dev/* answers 404.
  DEVELOPMENT_MODE: z.enum(["true", "false"]).optional(),
  // Reverse proxies in front of the service whose X-Forwarded-For entries are trusted (0 = none).
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
});

export type Env = Omit<z.infer<typeof schema>, "LOG_LEVEL" | "CONNECT_DRIVER" | "DEVELOPMENT_MODE" | "HOSTNAME" | "WEB_CONCURRENCY" | "METRICS_HOST" | "SHUTDOWN_DRAIN_MS"> & {
  HOSTNAME: string;
  WEB_CONCURRENCY: number;
  METRICS_HOST: string;
  SHUTDOWN_DRAIN_MS: number;
  LOG_LEVEL: NonNullable<z.infer<typeof schema>["LOG_LEVEL"]>;
  CONNECT_DRIVER: NonNullable<z.infer<typeof schema>["CONNECT_DRIVER"]>;
  MCP_URL: string;
  SIGN_IN_URL: string;
  SERVICE_SECRET: string;
  AUTH_SECRET: string;
  /** True when the database is the embedded PGlite (no DATABASE_URL). */
  embedded: boolean;
  /** DEVELOPMENT_MODE: the development surfaces exist (ask developmentMode(), not this field). */
  developmentMode: boolean;
};

export class ConfigError extends Error {}

/** SDK_DIR alone, for `npm run build` (scripts/build-sdk.ts), which reads no other setting and makes no secret. */
export function sdkDirSetting(source: Record<string, string | undefined> = process.env): string {
  return schema.shape.SDK_DIR.parse(source.SDK_DIR);
}

/** SHUTDOWN_DRAIN_MS's default: longer than deploy/haproxy.cfg takes to see readiness fail (two checks 500 ms apart). */
export const DEFAULT_SHUTDOWN_DRAIN_MS = 2_000;

function readOrCreateSecrets(dataDir: string): { SERVICE_SECRET: string; AUTH_SECRET: string } {
  // In-memory databases (tests) get throw-away secrets: nothing outlives the process.
  if (dataDir.startsWith("memory://")) {
    return { SERVICE_SECRET: randomBytes(32).toString("base64url"), AUTH_SECRET: randomBytes(32).toString("base64url") };
  }
  const file = path.join(path.resolve(dataDir), "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as { SERVICE_SECRET: string; AUTH_SECRET: string };
  const created = {
    SERVICE_SECRET: randomBytes(32).toString("base64url"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(created, null, 2), { mode: 0o600 });
  return created;
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.DISTILLER === "llm" && (!e.LLM_BASE_URL || !e.LLM_MODEL)) {
    throw new ConfigError("Invalid configuration:\n  DISTILLER=llm needs LLM_BASE_URL and LLM_MODEL.");
  }
  if (e.EMAIL_DRIVER === "smtp" && !e.SMTP_URL) {
    throw new ConfigError("Invalid configuration:\n  EMAIL_DRIVER=smtp needs SMTP_URL.");
  }
  if (e.SMS_DRIVER === "twilio" && (!e.TWILIO_ACCOUNT_SID || !e.TWILIO_AUTH_TOKEN || !e.TWILIO_FROM)) {
    throw new ConfigError("Invalid configuration:\n  SMS_DRIVER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.");
  }
  const embedded = !e.DATABASE_URL;
  const developmentMode = e.DEVELOPMENT_MODE ? e.DEVELOPMENT_MODE === "true" : embedded;
  const connectDriver = e.CONNECT_DRIVER ?? (developmentMode ? "development" : "providers");
  if (!developmentMode) {
    // A default must never be what makes a deployment unsafe: each development surface names its setting.
    const refused = [
      e.SMS_DRIVER === "outbox" &&
        `SMS_DRIVER=outbox${source.SMS_DRIVER ? "" : " (the default)"} keeps sign-in codes readable at /dev/outbox: set SMS_DRIVER=twilio with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.`,
      e.EMAIL_DRIVER === "outbox" &&
        `EMAIL_DRIVER=outbox${source.EMAIL_DRIVER ? "" : " (the default)"} keeps address codes readable at /dev/email-outbox: set EMAIL_DRIVER=smtp with SMTP_URL.`,
      connectDriver === "development" && "CONNECT_DRIVER=development connects apps through the stand-in page /dev/connect: set CONNECT_DRIVER=providers.",
      !e.SMS_COUNTRIES && "SMS_COUNTRIES unset lets sign-in codes be texted to every country: set SMS_COUNTRIES to the countries served, e.g. SMS_COUNTRIES=US,CA,GB.",
    ].filter((line): line is string => !!line);
    if (refused.length) {
      throw new ConfigError(
        `Invalid configuration: these are for development only, and DEVELOPMENT_MODE is ${e.DEVELOPMENT_MODE ? "false" : "off (DATABASE_URL is set)"}.\n${refused.map((r) => `  ${r}`).join("\n")}\n  To try the service locally on this database instead, set DEVELOPMENT_MODE=true.`,
      );
    }
  }
  if (embedded && e.WEB_CONCURRENCY !== undefined && e.WEB_CONCURRENCY > 1) {
    throw new ConfigError(`Invalid configuration:\n  WEB_CONCURRENCY=${e.WEB_CONCURRENCY} needs DATABASE_URL: the embedded database serves one process.`);
  }
  if (e.SHUTDOWN_DRAIN_MS !== undefined && e.SHUTDOWN_DRAIN_MS > 0 && e.SHUTDOWN_DRAIN_MS >= e.SHUTDOWN_TIMEOUT_MS) {
    throw new ConfigError(
      `Invalid configuration:\n  SHUTDOWN_DRAIN_MS=${e.SHUTDOWN_DRAIN_MS} must be less than SHUTDOWN_TIMEOUT_MS=${e.SHUTDOWN_TIMEOUT_MS}: the requests a drain lets arrive need time to finish.`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError("Invalid configuration:\n  METRICS_PORT must differ from PORT: metrics are served on a port of their own, never behind the load balancer.");
  }
  if (embedded && e.JOBS_WORKER === "off") {
    throw new ConfigError("Invalid configuration:\n  JOBS_WORKER=off needs DATABASE_URL: the embedded database serves one process, so its jobs run in it.");
  }
  let secrets = { SERVICE_SECRET: e.SERVICE_SECRET, AUTH_SECRET: e.AUTH_SECRET };
  if (!secrets.SERVICE_SECRET || !secrets.AUTH_SECRET) {
    if (!embedded && e.NODE_ENV === "production") {
      throw new ConfigError("Invalid configuration:\n  SERVICE_SECRET and AUTH_SECRET are required in production with DATABASE_URL (every instance must share them).");
    }
    const stored = embedded ? readOrCreateSecrets(e.DATA_DIR) : readOrCreateSecrets("memory://");
    secrets = {
      SERVICE_SECRET: secrets.SERVICE_SECRET ?? stored.SERVICE_SECRET,
      AUTH_SECRET: secrets.AUTH_SECRET ?? stored.AUTH_SECRET,
    };
  }
  return {
    ...e,
    LOG_LEVEL: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    // A development instance holds every code in its outbox: reachable from this machine only unless asked.
    HOSTNAME: e.HOSTNAME ?? (developmentMode ? "127.0.0.1" : "0.0.0.0"),
    WEB_CONCURRENCY: e.WEB_CONCURRENCY ?? (embedded ? 1 : availableParallelism()),
    SHUTDOWN_DRAIN_MS: e.SHUTDOWN_DRAIN_MS ?? Math.min(DEFAULT_SHUTDOWN_DRAIN_MS, Math.floor(e.SHUTDOWN_TIMEOUT_MS / 2)),
    METRICS_HOST: e.METRICS_HOST ?? e.HOSTNAME ?? (developmentMode ? "127.0.0.1" : "0.0.0.0"),
    CONNECT_DRIVER: connectDriver,
    MCP_URL: e.MCP_URL ?? `${e.BASE_URL}/personal-mcp`,
    SIGN_IN_URL: e.SIGN_IN_URL ?? `${e.BASE_URL}/sign-in`,
    SERVICE_SECRET: secrets.SERVICE_SECRET!,
    AUTH_SECRET: secrets.AUTH_SECRET!,
    embedded,
    developmentMode,
  };
}

/** Whether the development surfaces (outbox drivers, /dev/* pages, the stand-in consent page) exist. */
export function developmentMode(): boolean {
  return env().developmentMode;
}

const cached = processWideSlot<Env>("env");

/** The validated configuration, loaded on first use (at start-up via instrumentation.ts). */
export function env(): Env {
  if (!cached.current) {
    const loaded = loadEnv();
    cached.current = loaded;
    // next-auth reads its own address (the Google and GitHub callbacks among them) from
    // process.env.AUTH_URL: it is the service's public address, whatever Host header reached the process.
    process.env.AUTH_URL = new URL("/api/auth", loaded.BASE_URL).href;
  }
  return cached.current;
}

/** Tests swap configuration between files; production never calls this. */
export function resetEnvForTests(): void {
  cached.current = undefined;
}
