// A Client ID Metadata Document read for an authorize request whose client is not stored yet: kept in
// the flow's stored request (request.client_document) until the flow completes and the client and its
// agent are made from it (bindDocumentClient in ./documents.ts).
import { z } from "zod";

export const storedClientDocument = z.strictObject({
  /** The document's address: the client id. */
  url: z.string(),
  /** The client metadata as read and checked (RFC 7591 fields). */
  metadata: z.record(z.string(), z.unknown()),
  /** The name the hosted pages show for the client, with the host that vouches for it. */
  display_name: z.string(),
  /** When it was read (ISO 8601): the stored client's copy dates from then. */
  fetched_at: z.string(),
});
export type StoredClientDocument = z.output<typeof storedClientDocument>;
