// Structured JSON logs (pino) with secrets, tokens, codes and phone numbers redacted.
import { formatWithOptions } from "node:util";
import pino from "pino";
import { env } from "../../env";
import { processWideSlot } from "../../process-wide";

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

/** Set on an error the service has logged itself (instrumentation.ts, onRequestError). */
const LOGGED = Symbol.for("profile-service.log.logged");

/** Marks `err` as logged: the console line Next.js writes for the same error afterwards is dropped. */
export function markLogged(err: unknown): void {
  if (typeof err !== "object" || err === null || LOGGED in err) return;
  try {
    Object.defineProperty(err, LOGGED, { value: true });
  } catch {
    // a frozen object: its console line is written too
  }
}

/** ANSI colours, and Next.js's own console prefixes ("⨯ ", "⚠ ", "✓ ", …): a JSON line does without them. */
// eslint-disable-next-line no-control-regex -- the escape character is what an ANSI colour starts with
const ANSI_COLOURS = /\u001b\[[0-9;]*m/g;
const CONSOLE_PREFIX = /^\s*[⨯⚠✓○»▲]\s*/;

/** The console's methods the production server sends to the log, and the level each writes at. */
const CONSOLE_LEVELS = { error: "error", warn: "warn", info: "info", log: "info" } as const;

/**
 * Sends the console to the service's log, one JSON line per call: what Next.js and the libraries write
 * there in production (a page that failed, a warning, a start-up note) keeps the log JSON, and an error
 * the service logged already is not written a second time. The production server calls it at start-up
 * (its one plain line, where it listens, is written to stdout directly).
 */
export function consoleToLog(): void {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS) as Array<[keyof typeof CONSOLE_LEVELS, "error" | "warn" | "info"]>) {
    console[method] = (...args: unknown[]) => {
      if (args.some((a) => typeof a === "object" && a !== null && LOGGED in a)) return;
      const err = args.find((a): a is Error => a instanceof Error);
      const rest = args.filter((a) => a !== err);
      const msg = rest.length
        ? formatWithOptions({ colors: false }, ...rest)
            .replace(ANSI_COLOURS, "")
            .replace(CONSOLE_PREFIX, "")
            .trim()
        : "";
      logger()[level](err ? { err } : {}, msg || err?.message || "console");
    };
  }
}
