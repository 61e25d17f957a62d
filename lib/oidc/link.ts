// POST /v1/profile/link: ties a user who signed in with OpenID Connect to the developer's own user
// id, so the developer's server reads the profile with X-API-Key, X-Agent and X-User-Id alone.
import type { ResolvedKey } from "../api-keys/api-keys";
import { ApiError, MESSAGES } from "../http/errors";
import { PREFIX } from "../platform/ids";
import { verifyAgentToken } from "../bearer-tokens/agent-token";
import { linkExternalId } from "../users/users";
import { verifyAccessToken } from "../bearer-tokens/access-token";

export const LINK_MESSAGES = {
  externalUserRequired: "Send the developer's own user id in the X-User-Id header.",
  agentTokenNotAllowed: "Link with the OpenID Connect access token from the code exchange, not an agent token.",
  accessTokenRequired: "Send the OpenID Connect access token as Authorization: Bearer or access_token in the body.",
  clientNotOwned: "The client that issued this access token belongs to another developer account.",
} as const;

/** The external id must be a plain identifier, like every X-User-Id. */
const MAX_EXTERNAL_ID_LENGTH = 200;

export async function linkOidcUser(input: { key: ResolvedKey; externalId: string | undefined; accessToken: string | undefined }) {
  const externalId = input.externalId?.trim();
  if (!externalId) throw new ApiError("link_requires_external_user", LINK_MESSAGES.externalUserRequired);
  if (externalId.length > MAX_EXTERNAL_ID_LENGTH) throw new ApiError("invalid_request", `X-User-Id is at most ${MAX_EXTERNAL_ID_LENGTH} characters.`);
  const token = input.accessToken?.trim();
  if (!token) throw new ApiError("invalid_access_token", LINK_MESSAGES.accessTokenRequired);
  if (!token.startsWith(PREFIX.accessToken)) {
    if (await verifyAgentToken(token)) throw new ApiError("agent_token_not_allowed", LINK_MESSAGES.agentTokenNotAllowed);
    throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  }
  const grant = await verifyAccessToken(token);
  if (!grant) throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  // The grant carries its client's developer (a deleted client takes its grants with it).
  if (grant.developerId !== input.key.developerId) throw new ApiError("client_not_owned", LINK_MESSAGES.clientNotOwned);
  // A token from the other key plane is not valid for this key (test and live never mix).
  if (grant.plane !== input.key.plane) throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  await linkExternalId({ developerId: input.key.developerId, plane: input.key.plane, externalId, userId: grant.userId });
  return { linked: true as const, user_id: externalId, sub: grant.userId };
}
