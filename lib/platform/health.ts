// Liveness of the service's dependencies, for GET /api/health.
import { z } from "zod";
import { database } from "./db";

const TIMEOUT_MS = 2000;

/** GET /api/health's 200 answer (a database that does not answer is a 503, an error). */
export const healthResponse = z.strictObject({ status: z.literal("ok"), database: z.literal("ok") });
/** GET /api/health's 503: the database did not answer in time. */
export const healthUnavailableResponse = z.strictObject({ status: z.literal("unavailable"), database: z.literal("unavailable") });

export async function checkHealth(): Promise<{ ok: boolean; database: "ok" | "unavailable" }> {
  try {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS).unref());
    await Promise.race([database().then((d) => d.sql.query("SELECT 1")), timeout]);
    return { ok: true, database: "ok" };
  } catch {
    return { ok: false, database: "unavailable" };
  }
}
