// Passkey sign-in's own limits (text-message limits do not apply to it): attempts per flow, and
// assertions per client address.
import { ipLimitKey } from "../http/request";
import { lazyLimiter, type Limiter } from "../platform/ratelimit";
import { PASSKEY_MESSAGES, PasskeyError } from "./errors";

export const PASSKEY_LIMITS = { perFlow: 10, perIpPerHour: 60 } as const;

const limiters = {
  flow: lazyLimiter(() => ({ name: "passkey-flow", points: PASSKEY_LIMITS.perFlow, durationSeconds: 15 * 60 })),
  ip: lazyLimiter(() => ({ name: "passkey-ip", points: PASSKEY_LIMITS.perIpPerHour, durationSeconds: 3600 })),
};

async function consume(limiter: Limiter, key: string): Promise<void> {
  const res = await limiter.consume(key);
  if (!res.allowed) throw new PasskeyError("rate_limited", PASSKEY_MESSAGES.rateLimited, res.retryAfter);
}

/**
 * One passkey attempt of a flow from an address: options handed out count against the flow (the
 * phone screen asks for them on every load, for the number field's autofill), assertions against the
 * flow and the address.
 */
export async function consumePasskeyAttempt(input: { flowId: string; ip: string; kind: "options" | "assertion" }): Promise<void> {
  await consume(limiters.flow, input.flowId);
  if (input.kind === "assertion") await consume(limiters.ip, ipLimitKey(input.ip));
}

const registrations = lazyLimiter(() => ({ name: "passkey-register", points: 20, durationSeconds: 3600 }));

/** One passkey registration started by a person (options handed out). */
export async function consumeRegistration(userId: string): Promise<void> {
  await consume(registrations, userId);
}
