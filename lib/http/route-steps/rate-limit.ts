// Rate limit: a per-IP limit counts every request, those with a wrong key too (it runs first); a
// per-key limit needs the key (it runs once the key is known).
import type { Limiter } from "../../platform/ratelimit";
import { ApiError, MESSAGES } from "../errors";
import type { RequestStep } from "../route-pipeline";
import { ipLimitKey } from "../request";

async function consume(limiter: Limiter, subject: string): Promise<void> {
  const res = await limiter.consume(subject);
  if (!res.allowed) {
    throw new ApiError("rate_limited", MESSAGES.rateLimited, { retry_after: res.retryAfter }, { "Retry-After": String(res.retryAfter) });
  }
}

export const rateLimitByIp: RequestStep = (def) => {
  const limit = def.rateLimit;
  return limit?.by === "ip" ? (s) => consume(limit.limiter, `ip:${ipLimitKey(s.ip)}`) : null;
};

export const rateLimitByKey: RequestStep = (def) => {
  const limit = def.rateLimit;
  return limit?.by === "key" ? (s) => (s.key ? consume(limit.limiter, `key:${s.key.id}`) : undefined) : null;
};
