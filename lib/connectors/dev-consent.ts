// The request /dev/connect answers: the same parameters a provider's authorization endpoint takes,
// accepted only for this service's own callback.
import { z } from "zod";
import { CODE_CHALLENGE_PATTERN } from "../platform/crypto";
import { APPS } from "../catalogue";
import { appConnectionCallbackUrl } from "./connections";

export const devConsentRequest = z.object({
  app: z.enum(APPS),
  state: z.string().min(1).max(200),
  code_challenge: z.string().regex(CODE_CHALLENGE_PATTERN, "must be an S256 challenge"),
  code_challenge_method: z.literal("S256").optional(),
  redirect_uri: z.string().refine((u) => u === appConnectionCallbackUrl(), "must be this service's connect callback"),
});
export type DevConsentRequest = z.infer<typeof devConsentRequest>;
