// The wire schemas of the connect-link answers: a minted link, and a link's status.
import { z } from "zod";
import { CONNECT_STATUSES, LINK_STATUSES } from "./links";

/** POST /v1/profile/connect: what is missing, and the link that asks the person for it. */
export const connectResponse = z.strictObject({
  status: z.enum(CONNECT_STATUSES),
  connect_url: z.url(),
  expires_at: z.iso.datetime(),
  instructions: z.string(),
});

/** GET {MCP_URL}/connect/<id>/status. */
export const linkStatusResponse = z.strictObject({ status: z.enum(LINK_STATUSES) });
