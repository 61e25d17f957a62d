// Liveness and readiness, for GET /api/health and GET /api/ready.
import { z } from "zod";
import { database } from "./db";
import { markShuttingDown } from "./metrics";
import { processWide } from "../process-wide";

const TIMEOUT_MS = 2000;

/**
 * GET /api/health's answer: the process is up and serves requests. It does not ask the database: a
 * database that is away is not cured by restarting the process, and an orchestrator restarting every
 * instance at once would make an outage longer (GET /api/ready says whether to send traffic).
 */
export const healthResponse = z.strictObject({ status: z.literal("ok") });

/** Whether the database answers `SELECT 1` within 2 s. */
export async function checkDatabase(): Promise<"ok" | "unavailable"> {
  try {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS).unref());
    await Promise.race([database().then((d) => d.sql.query("SELECT 1")), timeout]);
    return "ok";
  } catch {
    return "unavailable";
  }
}

/** Whether this process has begun to shut down (scripts/server.mjs, on SIGTERM or SIGINT). */
const lifecycle = processWide("health.lifecycle", () => ({ shuttingDown: false }));

/** From now on the process is not ready: a load balancer sends it nothing new. */
export function beginShutdown(): void {
  lifecycle.shuttingDown = true;
  markShuttingDown();
}

export function shuttingDown(): boolean {
  return lifecycle.shuttingDown;
}

/** GET /api/ready's 200: the database answers (opened and migrated at start-up) and no shutdown has begun. */
export const readyResponse = z.strictObject({ status: z.literal("ready"), database: z.literal("ok") });
/** GET /api/ready's 503: shutting down, or the database does not answer. */
export const notReadyResponse = z.strictObject({ status: z.enum(["shutting_down", "unavailable"]), database: z.enum(["ok", "unavailable"]) });

export async function checkReadiness(): Promise<{ ready: boolean; status: "ready" | "shutting_down" | "unavailable"; database: "ok" | "unavailable" }> {
  const db = await checkDatabase();
  if (shuttingDown()) return { ready: false, status: "shutting_down", database: db };
  return db === "ok" ? { ready: true, status: "ready", database: "ok" } : { ready: false, status: "unavailable", database: "unavailable" };
}
