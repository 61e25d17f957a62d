// The sandbox provision limit per client IP address (SANDBOX_PROVISION_PER_HOUR).
import { env } from "../env";
import { createLimiter, type Limiter } from "../ratelimit";

let limiter: Limiter | undefined;

export const sandboxProvisionLimiter: Limiter = {
  get spec() {
    return (limiter ??= make()).spec;
  },
  consume: (key) => (limiter ??= make()).consume(key),
};

function make(): Limiter {
  return createLimiter({ name: "sandbox-provision", points: env().SANDBOX_PROVISION_PER_HOUR, durationSeconds: 3600 });
}
