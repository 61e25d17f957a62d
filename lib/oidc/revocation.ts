// POST /oauth/revoke (RFC 7009): a refresh token revokes its whole chain, an access token itself.
// A client that identifies itself must authenticate as it registered and revokes only its own tokens;
// without client credentials, holding a token is enough to revoke it.
import { z } from "zod";
import { hashToken } from "../bearer-tokens/access-token";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { ApiRequest } from "../http/api-request";
import { forClient } from "../http/cors";
import { PREFIX } from "../platform/ids";
import { authenticateClient } from "./client-auth";
import { invalidRequest, parameterRequired } from "./errors";
import { readForm } from "./form";
import { revokeChain } from "./tokens";

/** The revocation request's form, for the reference (RFC 7009 § 2.1). */
export const revocationForm = z.object({
  token: z.string(),
  token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});

/**
 * The revocation endpoint: reads the form, authenticates a client that identifies itself, revokes.
 * Answers the client it authenticated (null: none identified), whose origins may read the answer.
 */
export async function revocationEndpoint(req: Pick<ApiRequest, "headers" | "bodyText">): Promise<{ client: string | null }> {
  const form = await readForm(req);
  const token = form.get("token");
  if (!token) throw invalidRequest(parameterRequired("token"));
  const identified = form.has("client_id") || form.has("client_secret") || req.headers.get("authorization") !== null;
  const client = identified ? await authenticateClient(req, form) : null;
  const revoke = () => revokeToken(token, client?.id);
  await (client ? forClient(client.id, revoke) : revoke());
  return { client: client?.id ?? null };
}

/**
 * POST /oauth/revoke: a refresh token revokes its whole chain, an access token itself. With
 * `clientId`, only a token issued to that client is revoked. Unknown, expired and already revoked
 * tokens are no error (RFC 7009 § 2.2).
 */
export async function revokeToken(token: string, clientId?: string): Promise<void> {
  if (!token) return;
  const hash = hashToken(token);
  const now = clockNow();
  const prisma = await db();
  if (token.startsWith(PREFIX.refreshToken)) {
    await prisma.$transaction(async (tx) => {
      const [found] = await tx.$queryRaw<Array<{ grant_id: string; client_id: string }>>`
        SELECT t.grant_id, g.client_id FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = ${hash}`;
      if (!found || (clientId && found.client_id !== clientId)) return;
      await tx.$queryRaw`SELECT id FROM oauth_grants WHERE id = ${found.grant_id}::uuid FOR UPDATE`;
      await revokeChain(tx, found.grant_id, "revoked", now);
    });
  } else if (token.startsWith(PREFIX.accessToken)) {
    await prisma.$executeRaw`
      UPDATE oauth_access_tokens a SET revoked_at = ${now} FROM oauth_grants g
       WHERE a.hash = ${hash} AND a.revoked_at IS NULL AND g.id = a.grant_id AND (${clientId ?? null}::text IS NULL OR g.client_id = ${clientId ?? null})`;
  }
}
