// Limits of the sign-in routes that take no key.
import { lazyLimiter } from "../platform/ratelimit";

/** GET /v1/auth/sign-in/agents/:agent/hosted: public branding, per client IP. */
export const HOSTED_METADATA_PER_MINUTE = 120;
export const hostedMetadataLimiter = lazyLimiter(() => ({ name: "sign-in-hosted", points: HOSTED_METADATA_PER_MINUTE, durationSeconds: 60 }));

/** POST /v1/auth/sign-in/code: codes minted per agent token holder's IP. */
export const SIGN_IN_CODES_PER_MINUTE = 60;
export const signInCodeLimiter = lazyLimiter(() => ({ name: "sign-in-code", points: SIGN_IN_CODES_PER_MINUTE, durationSeconds: 60 }));
