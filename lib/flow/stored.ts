// The flow's stored state, parsed when read: the JSON columns (the way in's request, the required
// entries, what was brought in, the receipt). A row the service did not write this way is an error, not
// something to guess at. The way in, the status and the screen are enums in the database itself.
import { z } from "zod";
import { ASSISTANTS, IMPORT_SCREEN_APPS } from "../catalogue";
import { storedClientDocument } from "../personal-mcp/pending";
import type { BroughtIn } from "./bring-in";
import type { RequiredEntry } from "./required";
import { PARTNER_FLOWS } from "./sequence";
import type { ConnectFlowRequest, FlowReceipt, OidcFlowRequest, PartnerFlowRequest, SignInLinkRequest } from "./sessions";

const nullableString = z.string().nullable();

export const storedOidcRequest = z.strictObject({
  redirect_uri: z.string(),
  state: nullableString,
  nonce: nullableString,
  scopes: z.array(z.string()),
  code_challenge: z.string(),
  client_document: storedClientDocument.optional(),
}) satisfies z.ZodType<OidcFlowRequest>;

export const storedConnectRequest = z.strictObject({
  app: nullableString,
  capability: nullableString,
  purpose: nullableString,
  client_name: nullableString,
  return_url: nullableString,
  signed_in: z.boolean(),
  binds_external_id: z.boolean().optional(),
  for_user_id: nullableString.optional(),
  capability_allowed: z.boolean().optional(),
}) satisfies z.ZodType<ConnectFlowRequest>;

export const storedSignInLinkRequest = z.strictObject({
  return_to: nullableString,
  state: nullableString,
  display_name: nullableString,
  connectors: z.array(z.string()),
  reconnect: z.boolean(),
  message: z
    .strictObject({
      line_id: z.string(),
      channel: z.string(),
      complete_url: nullableString,
      journey: nullableString,
      body: nullableString,
      link_hash: z.string(),
    })
    .nullable(),
}) satisfies z.ZodType<SignInLinkRequest>;

export const storedPartnerRequest = z.strictObject({
  flow: z.enum(PARTNER_FLOWS),
  sources: z.array(z.enum(ASSISTANTS)),
  phone_first: z.boolean(),
  binds_external_id: z.boolean(),
}) satisfies z.ZodType<PartnerFlowRequest>;

export const storedRequired = z.array(z.array(z.enum([...ASSISTANTS, ...IMPORT_SCREEN_APPS]))) satisfies z.ZodType<RequiredEntry[]>;

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
