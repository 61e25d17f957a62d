// The shared limit of /oauth/* and /v1/sso/*: requests per minute per client IP address.
import { env } from "../env";
import { lazyLimiter } from "../platform/ratelimit";

export const oauthLimiter = lazyLimiter(() => ({ name: "oauth", points: env().OAUTH_REQUESTS_PER_MINUTE, durationSeconds: 60 }));
