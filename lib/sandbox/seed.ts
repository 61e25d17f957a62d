// The synthetic sandbox user's seeded state: what provision creates and reset restores.

/** A reserved, never-assigned test number (NANP 555-01xx lines are fictitious). */
export const SANDBOX_PHONE = "+15555550100";
/** The synthetic user's verification code: always this, and no message is ever sent. */
export const SANDBOX_VERIFICATION_CODE = "424242";
export const SANDBOX_AGENT_HANDLE = "sandbox-agent";
/** The sandbox agent's display name: the hosted flow's buttons say it ("Continue to Sandbox Agent"). */
export const SANDBOX_AGENT_NAME = "Sandbox Agent";
export const SANDBOX_EXTERNAL_ID = "sandbox-user";

export const SANDBOX_USER_CLAIMS = {
  name: "Sam Sandbox",
  givenName: "Sam",
  familyName: "Sandbox",
  picture: null,
  birthdate: "spring 1990",
  location: "Lisbon, Portugal",
  email: "sam.sandbox@example.com",
  emailProof: "none",
} as const;

/** Scenarios POST /v1/sandbox/simulate accepts; each stays in force until the next reset. */
export const SANDBOX_SCENARIOS = ["gmail_token_expired"] as const;
export type SandboxScenario = (typeof SANDBOX_SCENARIOS)[number];
