// Starting a flow: a way in (lib/flow/ways-in/) opens one for a browser with its request, which is
// parsed before it is written, under one per-IP limit every way in shares (FLOWS_PER_IP_PER_HOUR).
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { env } from "../env";
import { ipLimitKey } from "../http/request";
import { lazyLimiter } from "../platform/ratelimit";
import type { RequiredEntry } from "../required/entries";
import { FLOW_TTL_SECONDS, newFlowIdentity } from "./browser";
import { FlowError } from "./errors";
import { requestColumns } from "./row";
import type { WayInName } from "./screens";
import type { WayIn } from "./ways-in/types";

const flowStarts = lazyLimiter(() => ({ name: "flow-start", points: env().FLOWS_PER_IP_PER_HOUR, durationSeconds: 3600 }));

/** What a way in starts a flow with. */
export interface FlowStart<R> {
  /** The developer and agent the flow is for (none for the service's own sign-up). */
  developerId?: string;
  agentId?: string;
  plane: Plane;
  /** The person, when the way in already knows them (a connect link opened with their session). */
  userId?: string;
  required: RequiredEntry[];
  request: R;
  /** The client's address: every way in counts against one per-IP limit. */
  ip: string;
}

/** Starts a flow of this way in on its first screen; returns its id and the value the browser's flow cookie must hold. */
export async function startFlow<N extends WayInName, R>(way: WayIn<N, R>, input: FlowStart<R>): Promise<{ id: string; browserSecret: string; expiresAt: Date }> {
  const limited = await flowStarts.consume(`ip:${ipLimitKey(input.ip)}`);
  if (!limited.allowed) throw new FlowError("rate_limited", limited.retryAfter);
  const { parsed, columns } = requestColumns(way, input.request);
  const { id, browserSecret, browserHash } = newFlowIdentity();
  const createdAt = clockNow();
  const expiresAt = new Date(createdAt.getTime() + FLOW_TTL_SECONDS * 1000);
  const [screen = "receipt"] = way.screens({ required: input.required }, parsed);
  await (
    await db()
  ).flowSession.create({
    data: {
      id,
      wayIn: way.name,
      developerId: input.developerId,
      agentId: input.agentId,
      plane: input.plane,
      ...columns,
      userId: input.userId,
      required: input.required,
      screen,
      browserHash,
      createdAt,
      expiresAt,
    },
  });
  return { id, browserSecret, expiresAt };
}
