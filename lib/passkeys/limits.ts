// Passkey sign-in's own limits (text-message limits do not apply to it): attempts per flow and per
// client address, options and responses alike.
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

/** One passkey attempt of a flow from an address; refused over either limit. */
export async function consumePasskeyAttempt(input: { flowId: string; ip: string }): Promise<void> {
  await consume(limiters.flow, input.flowId);
  await consume(limiters.ip, ipLimitKey(input.ip));
}

const registrations = lazyLimiter(() => ({ name: "passkey-register", points: 20, durationSeconds: 3600 }));

/** One passkey registration started by a person (options handed out). */
export async function consumeRegistration(userId: string): Promise<void> {
  await consume(registrations, userId);
}
