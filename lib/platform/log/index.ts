// Structured JSON logs (pino) with secrets, tokens, codes and phone numbers redacted.
import pino from "pino";
import { env } from "../env";
import { processWideSlot } from "../process-wide";

/** Replaces anything that looks like a credential, a JWT or a phone number. */
export function scrub(text: string): string {
  return text
    .replace(/\b(sk_test_|sk_|pk_test_|pk_|ocs_|mcp_at_|mcp_rt_)[A-Za-z0-9]+/g, "$1[redacted]")
    .replace(/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "[jwt]")
    .replace(/\+?\d[\d\s().-]{7,}\d/g, "[phone]");
}

export const REDACT_PATHS = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'req.headers["x-user-id"]',
  "headers.authorization",
  'headers["x-api-key"]',
  "*.password",
  "*.secret",
  "*.token",
  "*.code",
  "*.phone",
  "*.agent_token",
  "*.secret_key",
  "*.publishable_key",
  "*.verification_code",
];

function createLogger(destination?: pino.DestinationStream) {
  return pino(
    {
      level: env().LOG_LEVEL,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        logMethod(args, method) {
          // Free-text messages and error strings can carry user input: scrub them too.
          method.apply(this, args.map((a) => (typeof a === "string" ? scrub(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: env().LOG_SYNC === "true" }),
  );
}

const instance = processWideSlot<pino.Logger>("log");

export function logger(): pino.Logger {
  instance.current ??= createLogger();
  return instance.current;
}

const requestLines = processWideSlot<{ parent: pino.Logger; child: pino.Logger }>("log.request-lines");

/**
 * The logger of the per-request line (lib/http/route-steps/answer.ts): the same destination and level, without
 * the redaction walk. That line's fields are fixed — request id, method, route pattern, status, latency,
 * developer id — and never hold a secret; it is written on every request, where the walk costs
 * (docs/performance.md). Anything else is logged through logger().
 */
export function requestLogger(): pino.Logger {
  const parent = logger();
  if (requestLines.current?.parent !== parent) requestLines.current = { parent, child: parent.child({}, { redact: { paths: [] } }) };
  return requestLines.current.child;
}

/** Sends log lines to a stream a test can read. */
export function captureLogsForTests(destination: pino.DestinationStream, level: pino.Level = "info"): void {
  const captured = createLogger(destination);
  captured.level = level;
  instance.current = captured;
}
