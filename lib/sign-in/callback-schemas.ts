// The wire schemas of the completion callback of text-back sign-in: the body the service POSTs to the
// developer's messageCompleteUrl, and the answers of GET /v1/auth/sign-in/callback-secret and its rotation.
import { z } from "zod";

/** The callback's `type`: a text-back sign-in finished. */
export const COMPLETION_EVENT_TYPE = "sign_in.completed";

/** What the callback says besides its agent token: stored as it is, since the token is minted at each try. */
export const completionPayload = z.strictObject({
  type: z.literal(COMPLETION_EVENT_TYPE),
  /** The callback's id, also sent as Service-Callback-Id: the same on every try, so a repeat can be ignored. */
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  agent: z.string(),
  userId: z.uuid(),
  tokenUse: z.literal("agent"),
  /** The journeyId the message URL was made with: maps the sign-in back to the message thread. */
  journey: z.string().nullable(),
  /** The message the person sent before signing in (the message URL's messageBody), when it gave one. */
  messageBody: z.string().nullable(),
  channel: z.string(),
  livemode: z.boolean(),
});
export type CompletionPayload = z.infer<typeof completionPayload>;

/** The JSON body POSTed to messageCompleteUrl: the payload and a fresh agent token, to validate with POST /v1/auth/sign-in/validate. */
export const completionCallbackBody = z.strictObject({ ...completionPayload.shape, token: z.string() });
export type CompletionCallbackBody = z.infer<typeof completionCallbackBody>;

/** How long a replaced callback secret keeps signing beside its replacement, unless the rotation says otherwise. */
export const CALLBACK_SECRET_OVERLAP_HOURS = 24;
/** The longest overlap a rotation may ask for (a week). */
export const CALLBACK_SECRET_MAX_OVERLAP_HOURS = 168;

/** A callback signing secret: whsec_ and 43 base64url characters (256 bits). */
export const CALLBACK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/**
 * GET /v1/auth/sign-in/callback-secret and its rotation: the secret of the key's developer and plane,
 * when it was made, and, during a rotation's overlap, when the secret it replaced stops signing.
 */
export const callbackSecretResponse = z.strictObject({
  secret: z.string().regex(CALLBACK_SECRET_PATTERN),
  createdAt: z.iso.datetime(),
  previous: z.strictObject({ expiresAt: z.iso.datetime() }).nullable(),
  livemode: z.boolean(),
});

/** POST /v1/auth/sign-in/callback-secret/rotate: how long the replaced secret keeps signing (hours; 0 ends it now). */
export const rotateCallbackSecretBody = z.strictObject({
  overlapHours: z.int().min(0).max(CALLBACK_SECRET_MAX_OVERLAP_HOURS).optional(),
});
