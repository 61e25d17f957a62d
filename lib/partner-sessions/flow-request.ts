// What a partner flow session's link carries into the flow it opens, as the flow stores it
// (lib/flow/ways-in/partner.ts).
import { z } from "zod";
import { ASSISTANTS } from "../catalogue";
import { PARTNER_FLOWS } from "./flows";

export const partnerLinkRequest = z.strictObject({
  /** The session the flow was opened from (kept in its own column: lib/flow/row.ts). */
  partner_session_id: z.string(),
  flow: z.enum(PARTNER_FLOWS),
  /** The assistants the import screen offers. */
  sources: z.array(z.enum(ASSISTANTS)),
  /** linked_account with the developer's phone-first order: phone and code before the import screen. */
  phone_first: z.boolean(),
  /**
   * The partner's id for the person is bound to the account that finishes: only after a code in this
   * flow, and only while no account holds it (no account held it when the link opened).
   */
  binds_external_id: z.boolean(),
});
export type PartnerLinkRequest = z.output<typeof partnerLinkRequest>;
