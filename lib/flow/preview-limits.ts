// What bounds the import screen's previews, which anyone holding a flow's link may ask for: a budget
// per flow and per network, and a small number of large export files read at once in this process
// (reading a 20 MB conversations.json takes far more memory than the file), refused rather than
// queued when all are taken.
import { BringInError } from "./bring-in";
import { FLOW_TTL_SECONDS } from "./browser";
import { env } from "../env";
import { ipLimitKey } from "../http/request";
import { processWide } from "../process-wide";
import { lazyLimiter } from "../platform/ratelimit";

/** Files larger than this take one of the process's LARGE_PREVIEWS_AT_ONCE slots while they are read. */
export const LARGE_PREVIEW_BYTES = 1024 * 1024;

export const PREVIEWS_PER_FLOW_REFUSED = "That is a lot of previews for one sign-in.";
export const PREVIEWS_PER_IP_REFUSED = "Too many previews were asked for from your network.";
export const LARGE_PREVIEWS_BUSY = "We are reading other large files right now. Try again in a minute.";

// A flow lives FLOW_TTL_SECONDS: its budget lasts as long.
const perFlow = lazyLimiter(() => ({ name: "flow-preview", points: env().PREVIEWS_PER_FLOW, durationSeconds: FLOW_TTL_SECONDS }));
const perIp = lazyLimiter(() => ({ name: "flow-preview-ip", points: env().PREVIEWS_PER_IP_PER_HOUR, durationSeconds: 3600 }));

const slots = processWide("flow.large-previews", () => ({ reading: 0 }));

/** "Try again in 5 minutes." for a wait of `seconds`. */
export function tryAgainIn(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return "Try again in a minute.";
  if (minutes >= 60) return "Try again in an hour.";
  return `Try again in ${minutes} minutes.`;
}

/**
 * Counts one preview against the flow's budget and, when the browser's address is known, its
 * network's. Over either: BringInError saying when to try again.
 */
export async function countPreview(input: { flowId: string; ip?: string }): Promise<void> {
  const flow = await perFlow.consume(`flow:${input.flowId}`);
  if (!flow.allowed) throw new BringInError(`${PREVIEWS_PER_FLOW_REFUSED} ${tryAgainIn(flow.retryAfter)}`);
  if (input.ip === undefined) return;
  const ip = await perIp.consume(`ip:${ipLimitKey(input.ip)}`);
  if (!ip.allowed) throw new BringInError(`${PREVIEWS_PER_IP_REFUSED} ${tryAgainIn(ip.retryAfter)}`);
}

/**
 * Runs `read` for a file of `bytes` bytes: a large one only while a slot is free (held until `read`
 * settles), else BringInError LARGE_PREVIEWS_BUSY at once.
 */
export async function withPreviewSlot<T>(bytes: number, read: () => Promise<T>): Promise<T> {
  if (bytes <= LARGE_PREVIEW_BYTES) return read();
  if (slots.reading >= env().LARGE_PREVIEWS_AT_ONCE) throw new BringInError(LARGE_PREVIEWS_BUSY);
  slots.reading++;
  try {
    return await read();
  } finally {
    slots.reading--;
  }
}
