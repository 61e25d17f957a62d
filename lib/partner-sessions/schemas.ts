// The wire schemas of partner flow sessions: the create request and the session as both routes answer it.
import { z } from "zod";
import { ASSISTANTS, IMPORT_SCREEN_APPS } from "../catalogue";
import { PARTNER_FLOWS } from "./flows";
import { PARTNER_SESSION_STATUSES } from "./statuses";

/**
 * POST /v1/flows/sessions. `sources` and `required` are checked by the service itself (not here), so
 * that a refusal names each name it did not accept (lib/partner-sessions/sessions.ts).
 */
export const partnerSessionBody = z.object({
  flow: z
    .enum(PARTNER_FLOWS)
    .optional()
    .describe("connect, linked_account or import (the import-only flow). Absent: connect where the installation has it (PARTNER_CONNECT_FLOW), otherwise import."),
  partner_ref: z.string().trim().min(1).max(200).describe("The partner's own user id for the person (what X-User-Id carries)."),
  sources: z.array(z.string().max(40)).max(20).optional().describe("The assistants the import screen offers: chatgpt, claude, gemini, grok (default all four)."),
  required: z
    .unknown()
    .optional()
    .describe(
      "A JSON list of entries: a name, or an inner list of alternatives ([['gmail','outlook'],'chatgpt'] is a mailbox and chatgpt). Names: chatgpt, claude, gemini, grok, gmail, outlook, calendar, drive, notion, email.",
    ),
});

const requiredName = z.enum([...ASSISTANTS, ...IMPORT_SCREEN_APPS]);

/** A partner flow session: what was asked, its link, and (once finished) what the person brought. */
export const partnerSessionResponse = z.strictObject({
  id: z.string(),
  flow: z.enum(PARTNER_FLOWS),
  partner_ref: z.string(),
  sources: z.array(z.enum(ASSISTANTS)),
  required: z.array(z.array(requiredName)),
  status: z.enum(PARTNER_SESSION_STATUSES),
  url: z.url(),
  expires_at: z.iso.datetime(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  /** Per assistant: the memories saved and the imports that hold them. */
  imported: z.array(z.strictObject({ provider: z.enum(ASSISTANTS), memories: z.number().int(), import_ids: z.array(z.string()) })),
  /** The apps connected in the flow. */
  connected: z.array(z.string()),
  /** Whether partner_ref now names the account that finished; null until a flow finishes. */
  partner_ref_linked: z.boolean().nullable(),
});
