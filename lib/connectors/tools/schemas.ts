// The pieces the connector tools' contracts share: list paging, and a message as a mail search lists it.
import { z } from "zod";
import { MAILBOX_APPS } from "../../catalogue";

/** How many a list tool answers. */
export const listLimit = z.number().int().min(1).max(50).default(10).describe("How many to return, 1 to 50 (default 10).");

/** A list tool's page token (next_page_token from the answer before). */
export const pageToken = z.string().min(1).max(2048).optional().describe("next_page_token from the previous answer, for the next page.");

/** A message as the mail tools list it (lib/connectors/apis/mail.ts MailSummary): headers and a snippet. */
export const mailSummary = z.object({
  id: z.string(),
  thread_id: z.string().nullable(),
  mailbox: z.enum(MAILBOX_APPS),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  snippet: z.string(),
  date: z.string(),
});
