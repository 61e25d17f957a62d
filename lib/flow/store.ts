// A stored flow as the code sees it: read by id and parsed by its way in (lib/flow/row.ts), and the
// changes the transitions write (lib/flow/transitions.ts), a request among them parsed by the same way
// in before it is written.
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { FlowSession as FlowRow, Prisma } from "../platform/db/generated/client";
import { isFlowId } from "./browser";
import { flowFromRow, requestColumns } from "./row";
import type { Screen, WayInName } from "./screens";
import { WAYS_IN, wayOf, type Flow, type WayFlow, type WayInRequests } from "./ways-in";

export type { Flow, WayFlow } from "./ways-in";

/** A flow by id, as stored (expired or ended ones included); null when unknown. Inside `tx` when given. */
export async function findFlow(id: string, tx?: Prisma.TransactionClient): Promise<Flow | null> {
  if (!isFlowId(id)) return null;
  const row = await (tx ?? (await db())).flowSession.findUnique({ where: { id } });
  // The row's way in picks the schema its request is parsed with; the compiler cannot carry that from
  // the column to the union, so the parsed flow is named a Flow here, once.
  return row ? (parsedBy(row.wayIn, row) as Flow) : null;
}

function parsedBy<K extends WayInName>(wayIn: K, row: FlowRow): WayFlow<K> {
  return flowFromRow(WAYS_IN[wayIn], row);
}

export function isExpired(flow: { expiresAt: Date }, at = clockNow()): boolean {
  return flow.expiresAt <= at;
}

/** What a step changes on a flow: where it is and what the person entered; a request replaces the way in's whole request. */
export interface FlowChange<R> {
  screen?: Screen;
  userId?: string;
  signInFirst?: boolean;
  phoneHash?: string;
  phoneLast4?: string;
  pendingEmail?: string | null;
  request?: R;
}

/** A change as the row takes it: a request parsed by the flow's way in and split into its columns. */
export function changeData<K extends WayInName>(flow: WayFlow<K>, change: FlowChange<WayInRequests[K]>): Prisma.FlowSessionUncheckedUpdateManyInput {
  const { request, ...rest } = change;
  return request === undefined ? rest : { ...rest, ...requestColumns(wayOf(flow), request).columns };
}
