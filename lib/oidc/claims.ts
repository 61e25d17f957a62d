// The ID token: RS256 with kid in the header, and exactly the claims the specification's table
// allows for the granted scopes. email_verified is decided at each issuance from the account's
// current proof, never copied from an earlier token.
import { SignJWT } from "jose";
import { DEVELOPMENT_PROVIDER, SANDBOX_MAILBOX_ACCOUNT_ID } from "../connectors/types";
import { env } from "../env";
import { signingKey, SIGNING_ALG } from "./keys";

export const ID_TOKEN_TTL_SECONDS = 60 * 60;

/** The account fields an ID token may carry, as the users table holds them. */
export interface ClaimSource {
  email: string | null;
  email_proof: "none" | "mailbox" | "email_code" | "third_party";
  /**
   * Whether a connected, working mailbox (Gmail, Outlook) owns the address. A development connection
   * (/dev/connect) proves nothing, except for the sandbox's synthetic mailbox on the test plane.
   */
  mailbox_owned: boolean;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  picture: string | null;
  birthdate: string | null;
  location: string | null;
}

/** The SQL columns of users that make a ClaimSource, for statements that read them alongside a grant. */
export const CLAIM_COLUMNS = `u.email, u.email_proof, u.name, u.given_name, u.family_name, u.picture, u.birthdate, u.location,
  EXISTS (SELECT 1 FROM app_connections m WHERE m.user_id = u.id AND m.app IN ('gmail', 'outlook') AND m.status = 'active'
          AND lower(m.account_email) = lower(u.email) AND (m.provider <> '${DEVELOPMENT_PROVIDER}' OR (u.synthetic AND m.account_id = '${SANDBOX_MAILBOX_ACCOUNT_ID}'))) AS mailbox_owned`;

/**
 * True only with proof that the person controls the address, as it stands now: a connected mailbox
 * that owns it, a six-digit code emailed to it, or a Google or GitHub sign-in. A typed address, or
 * one another app supplied, has none.
 */
export function emailVerified(source: Pick<ClaimSource, "email" | "email_proof" | "mailbox_owned">): boolean {
  if (!source.email) return false;
  return source.mailbox_owned || source.email_proof === "email_code" || source.email_proof === "third_party";
}

/** The scoped claims: email with scope email, the profile claims with scope profile, each only when held. */
export function scopedClaims(source: ClaimSource, scopes: readonly string[]): Record<string, string | boolean> {
  const claims: Record<string, string | boolean> = {};
  if (scopes.includes("email") && source.email) {
    claims.email = source.email;
    claims.email_verified = emailVerified(source);
  }
  if (scopes.includes("profile")) {
    for (const name of ["name", "given_name", "family_name", "picture", "birthdate", "location"] as const) {
      const value = source[name];
      if (value) claims[name] = value;
    }
  }
  return claims;
}

/** Signs an ID token for one user and client: iss, sub, aud, iat, exp, nonce when sent, scoped claims. */
export async function signIdToken(input: {
  userId: string;
  clientId: string;
  scopes: readonly string[];
  nonce: string | null;
  source: ClaimSource;
  now: Date;
}): Promise<string> {
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
