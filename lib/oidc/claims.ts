// The ID token: RS256 with kid in the header, and exactly the claims the specification's table
// allows for the granted scopes. email_verified is decided at each issuance from the account's
// current proof, never copied from an earlier token.
import { SignJWT } from "jose";
import { addressProven, EMAIL_PROOF_COLUMNS, type EmailProofFacts } from "../person-auth/email-proof";
import { env } from "../env";
import { profileClaims, type ProfileClaimSource } from "../profile/claims";
import { signingKey, SIGNING_ALG } from "./signing-keys";

export const ID_TOKEN_TTL_SECONDS = 60 * 60;

/** The account fields an ID token may carry, as the users table and the composed profile hold them. */
export interface ClaimSource extends EmailProofFacts, ProfileClaimSource {}

/** The SQL columns (of users `u`) that make a ClaimSource, for statements that read them alongside a grant. */
export const CLAIM_COLUMNS = `${EMAIL_PROOF_COLUMNS}, u.name, u.given_name, u.family_name, u.picture, u.birthdate, u.location,
  (SELECT p.identity FROM user_profiles p WHERE p.user_id = u.id) AS identity_facts`;

/** The scoped claims: email with scope email, the profile claims with scope profile, each only when held. */
export function scopedClaims(source: ClaimSource, scopes: readonly string[]): Record<string, string | boolean> {
  const claims: Record<string, string | boolean> = {};
  if (scopes.includes("email") && source.email) {
    claims.email = source.email;
    claims.email_verified = addressProven(source);
  }
  if (scopes.includes("profile")) Object.assign(claims, profileClaims(source));
  return claims;
}

/** Signs an ID token for one user and client: iss, sub, aud, iat, exp, nonce when sent, scoped claims. */
export async function signIdToken(input: { userId: string; clientId: string; scopes: readonly string[]; nonce: string | null; source: ClaimSource; now: Date }): Promise<string> {
  const { kid, key } = await signingKey(input.now);
  const iat = Math.floor(input.now.getTime() / 1000);
  return new SignJWT({ ...(input.nonce ? { nonce: input.nonce } : {}), ...scopedClaims(input.source, input.scopes) })
    .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: "JWT" })
    .setIssuer(env().BASE_URL)
    .setSubject(input.userId)
    .setAudience(input.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ID_TOKEN_TTL_SECONDS)
    .sign(key);
}
