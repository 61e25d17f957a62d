// Bounds on MCP clients' metadata documents (lib/oidc/mcp-clients/documents.ts).
export const MAX_DOCUMENT_URL_LENGTH = 512;
export const DOCUMENT_TIMEOUT_MS = 5_000;
export const DOCUMENT_MAX_BYTES = 5 * 1024;
/** How long a document read is used before it is fetched again. */
export const DOCUMENT_MAX_AGE_SECONDS = 60 * 60;
