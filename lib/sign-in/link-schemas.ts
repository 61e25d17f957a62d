// The wire schemas of the sign-in link routes: hosted metadata, return destinations, codes, agent
// tokens and their validation.
import { z } from "zod";

/** GET /v1/auth/sign-in/agents/:agent/hosted. */
export const hostedAgentResponse = z.strictObject({
  signInUrl: z.string(),
  /** The agent's sign-in name (the last segment of signInUrl); not its X-Agent handle. */
  signInName: z.string(),
  displayName: z.string(),
  logoUrl: z.string().nullable(),
  initials: z.string(),
  brandColor: z.string().nullable(),
  metadataUrl: z.string(),
  publishableKey: z.string().nullable(),
  plane: z.enum(["live", "test"]),
});

/** Answers to a key carry livemode (the route contract adds it from the key's plane). */
const livemode = { livemode: z.boolean() };

const destination = z.strictObject({ returnTo: z.string(), createdAt: z.iso.datetime() });

/** POST /v1/auth/sign-in/return-destinations (201 new, 200 already registered). */
export const returnDestinationResponse = z.strictObject({ destination, created: z.boolean(), ...livemode });
/** GET /v1/auth/sign-in/return-destinations. */
export const returnDestinationsResponse = z.strictObject({ destinations: z.array(destination), ...livemode });
/** DELETE /v1/auth/sign-in/return-destinations. */
export const returnDestinationDeletedResponse = z.strictObject({ deleted: z.literal(true), destinations: z.array(destination), ...livemode });

/** POST /v1/auth/sign-in/code. */
export const signInCodeResponse = z.strictObject({ code: z.string(), expiresIn: z.number().int() });

/** POST /v1/auth/sign-in/exchange. */
export const exchangeResponse = z.strictObject({
  token: z.string(),
  userId: z.uuid(),
  tokenUse: z.literal("agent"),
  approved: z.boolean(),
  agent: z.string(),
  ...livemode,
});

/** POST /v1/auth/sign-in/validate: null fields when the token is not valid for this developer and agent. */
export const validateResponse = z.strictObject({
  valid: z.boolean(),
  userId: z.uuid().nullable(),
  tokenUse: z.literal("agent").nullable(),
  approved: z.boolean(),
  agent: z.string(),
  ...livemode,
});
