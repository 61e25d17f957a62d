// A request-log row for seeding the log directly (lib/request-log/record.ts recordRequest): a plain
// authenticated GET /v1/profile of the tenant's agent, now, in the live plane, with an id of its own.
import { newId, PREFIX } from "@/lib/platform/ids";
import type { RequestLogRecord } from "@/lib/request-log/record";
import type { Tenant } from "./fixtures";

export function requestLogRow(t: Tenant, overrides: Partial<RequestLogRecord> = {}): RequestLogRecord {
  return {
    id: newId(PREFIX.request),
    developerId: t.developer.id,
    plane: "live",
    agentId: t.agent.id,
    method: "GET",
    route: "/v1/profile",
    status: 200,
    errorCode: null,
    latencyMs: 5,
    at: new Date(),
    ...overrides,
  };
}
