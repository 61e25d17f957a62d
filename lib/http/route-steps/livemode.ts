// Livemode: a contract that says so answers `livemode` in its JSON body: whether the request's key is
// of the live plane (not the test plane).
import type { ResultStep } from "../route-pipeline";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const livemode: ResultStep = (def) => (def.livemode ? (body, s) => (s.key && isPlainObject(body) ? { ...body, livemode: s.key.plane === "live" } : body) : null);
