// The one check every flow page, server action and route handler makes: whether this browser (its
// flow cookie's value) may open the flow, and whether the flow is still open.
import { isFlowBrowser } from "./browser";
import { findFlow, isExpired, type Flow } from "./store";

/** What a browser finds at a flow's address. */
export type OpenedFlow =
  | { state: "open"; flow: Flow }
  /** Started in another browser (no cookie, or another one). */
  | { state: "foreign"; flow: Flow }
  /** Finished or declined. */
  | { state: "ended"; flow: Flow }
  /** Its 15 minutes are up. */
  | { state: "expired"; flow: Flow }
  | { state: "unknown"; flow: null };

export async function openFlowFor(flowId: string, cookieValue: string | undefined): Promise<OpenedFlow> {
  const flow = await findFlow(flowId);
  if (!flow) return { state: "unknown", flow: null };
  if (!(await isFlowBrowser(flow, cookieValue))) return { state: "foreign", flow };
  if (flow.status !== "active") return { state: "ended", flow };
  if (isExpired(flow)) return { state: "expired", flow };
  return { state: "open", flow };
}
