// The sandbox provision limit per client IP address (SANDBOX_PROVISION_PER_HOUR).
import { env } from "../env";
import { lazyLimiter } from "../platform/ratelimit";

export const sandboxProvisionLimiter = lazyLimiter(() => ({ name: "sandbox-provision", points: env().SANDBOX_PROVISION_PER_HOUR, durationSeconds: 3600 }));
