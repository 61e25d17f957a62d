// What a connect link carries into the flow it opens, as the flow stores it (lib/flow/ways-in/connect.ts).
import { z } from "zod";

const nullableString = z.string().nullable();

export const connectLinkRequest = z.strictObject({
  /** The link the flow was opened from (kept in its own column: lib/flow/row.ts). */
  connect_link_id: z.string(),
  app: nullableString,
  capability: nullableString,
  purpose: nullableString,
  client_name: nullableString,
  return_url: nullableString,
  /** The person had a session when the link opened. */
  signed_in: z.boolean(),
  /**
   * The link binds the developer's own id for a person to the account that finishes it: only after a
   * code in this flow (a session is not consent), and never an id already bound.
   */
  binds_external_id: z.boolean().optional(),
  /** The account the link was minted for, when the developer named one: no other account may finish it. */
  for_user_id: nullableString.optional(),
  /** Set once the person allowed the capability. */
  capability_allowed: z.boolean().optional(),
});
export type ConnectLinkRequest = z.output<typeof connectLinkRequest>;
