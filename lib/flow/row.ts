// The one mapping between a flow_sessions row and the flow the code sees: the way in's request joined
// with its reference column, and every JSON column parsed on the way in and on the way out. Nothing
// else reads or writes those columns, so a flow is always one of the shapes the ways in declare.
import type { FlowSession as FlowRow, Prisma } from "../platform/db/generated/client";
import { storedRequired } from "../required/entries";
import type { WayInName } from "./screens";
import { storedBroughtIn, storedReceipt } from "./stored";
import type { FlowOf, WayIn } from "./ways-in/types";

/**
 * The columns a way in keeps its origin in, by the name its parsed request gives each. They stay
 * columns rather than JSON for what the database does with them: their foreign keys (a deleted client
 * or partner session takes its flows with it), the partner session's index, and the sweep's lookup of
 * the clients flows still use.
 */
const REFERENCES = { client_id: "clientId", connect_link_id: "connectLinkId", partner_session_id: "partnerSessionId" } as const;
type ReferenceColumn = (typeof REFERENCES)[keyof typeof REFERENCES];

/** What a request writes: the JSON column and the reference columns (null where the way in keeps none). */
export type RequestColumns = { request: Prisma.InputJsonValue } & Record<ReferenceColumn, string | null>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A way in's request as its columns store it, parsed first: a request the way in does not declare is refused, never written. */
export function requestColumns<N extends WayInName, R>(way: WayIn<N, R>, request: R): { parsed: R; columns: RequestColumns } {
  const parsed = way.request.parse(request);
  if (!isRecord(parsed)) throw new Error(`the ${way.name} way in's request is not an object`);
  const json: Record<string, unknown> = { ...parsed };
  const columns: Record<ReferenceColumn, string | null> = { clientId: null, connectLinkId: null, partnerSessionId: null };
  for (const [key, column] of Object.entries(REFERENCES) as Array<[keyof typeof REFERENCES, ReferenceColumn]>) {
    const value = json[key];
    delete json[key];
    if (typeof value === "string") columns[column] = value;
  }
  return { parsed, columns: { request: json as Prisma.InputJsonValue, ...columns } };
}

/** A row as the flow of its way in, every JSON column parsed (a row that does not parse throws). */
export function flowFromRow<N extends WayInName, R>(way: WayIn<N, R>, row: FlowRow): FlowOf<N, R> {
  const references: Record<string, string> = {};
  for (const [key, column] of Object.entries(REFERENCES) as Array<[keyof typeof REFERENCES, ReferenceColumn]>) {
    const value = row[column];
    if (value !== null) references[key] = value;
  }
  return {
    id: row.id,
    wayIn: way.name,
    request: way.request.parse(isRecord(row.request) ? { ...row.request, ...references } : row.request),
    developerId: row.developerId,
    agentId: row.agentId,
    plane: row.plane,
    required: storedRequired.parse(row.required),
    status: row.status,
    screen: row.screen,
    signInFirst: row.signInFirst,
    broughtIn: storedBroughtIn.parse(row.broughtIn),
    phoneHash: row.phoneHash,
    phoneLast4: row.phoneLast4,
    pendingEmail: row.pendingEmail,
    userId: row.userId,
    receipt: storedReceipt.parse(row.receipt),
    expiresAt: row.expiresAt,
    browserHash: row.browserHash,
  };
}
