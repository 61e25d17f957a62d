// The flow's own stored JSON, parsed when read: what was brought in and the receipt. A row the
// service did not write this way is an error, not something to guess at. A way in's request is parsed
// by its own schema (lib/flow/ways-in/), the required entries by lib/required/entries.ts; the way in,
// the status and the screen are enums in the database itself.
import { z } from "zod";
import { ASSISTANTS } from "../catalogue";
import type { BroughtIn } from "./bring-in";

const nullableString = z.string().nullable();

/** What the receipt shows: the memories saved per assistant, and the app approved. */
export interface FlowReceipt {
  saved: Array<{ provider: string; count: number }>;
  /** Apps connected during the flow. */
  connected?: string[];
  approvedAgentId: string | null;
}

export const storedBroughtIn = z.array(
  z.strictObject({
    provider: z.enum(ASSISTANTS),
    via: z.enum(["paste", "file"]),
    memories: z.array(z.strictObject({ text: z.string(), at: nullableString })),
    confirmed: z.boolean(),
  }),
) satisfies z.ZodType<BroughtIn[]>;

export const storedReceipt = z
  .object({
    saved: z.array(z.strictObject({ provider: z.string(), count: z.number().int() })),
    connected: z.array(z.string()).optional(),
    approvedAgentId: nullableString,
  })
  .nullable() satisfies z.ZodType<FlowReceipt | null>;
