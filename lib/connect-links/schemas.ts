// The wire schemas of connect links: the mint request, a minted link, and a link's status.
import { z } from "zod";
import { APPS } from "../catalogue";
import { CONNECT_STATUSES, LINK_STATUSES } from "./links";

const capability = z
  .string()
  .trim()
  .regex(new RegExp(`^(${APPS.join("|")}):[a-z_]{1,40}$`), "capability is <app>:<permission>, for example gmail:send");

/** POST /v1/profile/connect (and the connect MCP tool). All fields optional; `required` and anything else unknown are dropped without error. */
export const connectLinkBody = z.object({
  app: z.enum(APPS).optional(),
  capability: capability.optional(),
  purpose: z.string().trim().max(280).optional(),
  client_name: z.string().trim().min(1).max(80).optional(),
  return_url: z.string().max(2048).optional(),
  user_id: z.string().trim().min(1).max(200).optional(),
});

/** POST /v1/profile/connect: what is missing, and the link that asks the person for it. */
export const connectLinkResponse = z.strictObject({
  status: z.enum(CONNECT_STATUSES),
  connect_url: z.url(),
  expires_at: z.iso.datetime(),
  instructions: z.string(),
});

/** GET {MCP_URL}/connect/<id>/status. */
export const linkStatusResponse = z.strictObject({ status: z.enum(LINK_STATUSES) });
