// The configuration of a production install, for tests of what development mode changes: no
// development drivers, every outside service configured (to addresses nothing listens on).
import { randomBytes } from "node:crypto";
import { resetEnvForTests } from "@/lib/env";
import { closeRateLimitStore } from "@/lib/platform/ratelimit";

export const PRODUCTION_ENV = {
  DEVELOPMENT_MODE: "false",
  SMS_DRIVER: "twilio",
  TWILIO_ACCOUNT_SID: "AC1",
  TWILIO_AUTH_TOKEN: "t",
  TWILIO_FROM: "+15005550006",
  EMAIL_DRIVER: "smtp",
  SMTP_URL: "smtp://127.0.0.1:1",
  CONNECT_DRIVER: "providers",
  SMS_COUNTRIES: "US,CA,GB",
} as const;

/** Switches development mode off (true: back to the test run's own configuration). */
export function setDevelopmentMode(on: boolean): void {
  for (const [k, v] of Object.entries(on ? saved : PRODUCTION_ENV)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
}
const saved: Record<string, string | undefined> = Object.fromEntries(Object.keys(PRODUCTION_ENV).map((k) => [k, process.env[k]]));

/** Runs `fn` with development mode off, then puts the configuration back. */
export async function outsideDevelopment(fn: () => Promise<void>): Promise<void> {
  setDevelopmentMode(false);
  try {
    await fn();
  } finally {
    setDevelopmentMode(true);
  }
}

const ratePrefix = process.env.RATE_LIMIT_PREFIX;

/**
 * Starts every rate limit afresh: the in-memory counts go with the closed store; Redis keeps its
 * counts, so under Redis the limits move to a key prefix nothing was counted under.
 */
export async function freshRateLimits(): Promise<void> {
  await closeRateLimitStore();
  if (process.env.REDIS_URL) {
    process.env.RATE_LIMIT_PREFIX = `${ratePrefix ?? "rl"}-${randomBytes(4).toString("hex")}`;
    resetEnvForTests();
  }
}

/**
 * Points the service at a PostgreSQL address where nothing listens (port 9, discard, on loopback:
 * every connection is refused at once) until the returned function puts the test run's own database
 * back. The database that was open is closed first.
 */
export async function makeDatabaseUnreachable(): Promise<() => Promise<void>> {
  const { closeDatabase } = await import("@/lib/platform/db");
  const saved = { ...process.env };
  await closeDatabase();
  process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:9/none";
  delete process.env.DATA_DIR;
  resetEnvForTests();
  return async () => {
    await closeDatabase();
    process.env = saved;
    resetEnvForTests();
  };
}
