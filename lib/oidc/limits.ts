// The shared limit of /oauth/* and /v1/sso/*: requests per minute per client IP address.
import { env } from "../env";
import { createLimiter, type Limiter } from "../ratelimit";

let limiter: Limiter | undefined;

export const oauthLimiter: Limiter = {
  get spec() {
    return (limiter ??= make()).spec;
  },
  consume: (key) => (limiter ??= make()).consume(key),
};

function make(): Limiter {
  return createLimiter({ name: "oauth", points: env().OAUTH_REQUESTS_PER_MINUTE, durationSeconds: 60 });
}
