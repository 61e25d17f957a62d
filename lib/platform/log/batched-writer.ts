// Rows a request leaves behind and nobody waits for (the access log, the request log): held in
// memory, written after the answer in batches of one statement each, tried again with growing waits
// (up to RETRY_WAIT_MAX_MS) for as long as the database stays away, up to giveUpAfterMs, bounded in
// number while it is slow or away, and written out at shutdown, which tries until its own deadline.
// Every writer is kept in one process-wide registry, so shutdown writes them all with one call
// (flushWriters, run by lib/startup.ts's stopService for the server and the worker alike).
//
// What can still be lost: the rows held when the process is killed outright (kill -9, a crash: at
// most one flushAfterMs of rows, plus any held while the database was away), rows beyond maxPending
// while the database is away (counted as dropped), and rows the database refused for longer than
// giveUpAfterMs or past the shutdown deadline (counted as lost). Each is logged with its count.
import { logger } from "./index";
import { processWide } from "../../process-wide";

export interface BatchedWriterOptions<T> {
  /** Names the writer in the registry and in its warnings ("access log"). */
  name: string;
  /** Writes one batch in one statement; throws when it could not, and the batch is tried again. */
  write: (batch: T[]) => Promise<void>;
  /** Rows written together at most; a full batch is written at once. */
  batchSize: number;
  /** How long a row may wait for others before its batch is written. */
  flushAfterMs: number;
  /** Rows held at most, waiting or being written: beyond it new rows are dropped and counted. */
  maxPending: number;
  /** How long a batch is tried again while its writes fail before its rows are given up (10 minutes). */
  giveUpAfterMs?: number;
  /** The wait before the second try; each later wait doubles, up to RETRY_WAIT_MAX_MS (200 ms). */
  retryAfterMs?: number;
}

/** What a writer has done since the process started. */
export interface WriterStats {
  /** Rows the database accepted. */
  written: number;
  /** Rows refused on arrival because maxPending were held. */
  dropped: number;
  /** Rows given up after every try of their batch failed. */
  lost: number;
  /** Rows waiting or being written now. */
  pending: number;
}

export interface BatchedWriter<T> {
  /** Queues one row: never waits, never throws (the caller is answering a request). */
  add(row: T): void;
  /** Writes every row waiting now; resolves once they are written or given up, never rejects. */
  flush(): Promise<void>;
  stats(): WriterStats;
}

const DEFAULT_GIVE_UP_AFTER_MS = 10 * 60_000;
const DEFAULT_RETRY_AFTER_MS = 200;
/** The longest wait between two tries of a batch: a database back from an outage is used within it. */
export const RETRY_WAIT_MAX_MS = 5_000;
/** How long flushWriters tries by default before what is left is given up. */
export const FLUSH_DEADLINE_MS = 5_000;

/** Every writer of the process, by name: one per name however many copies of lib/ are loaded. */
const writers = processWide("log.batched-writers", () => new Map<string, BatchedWriter<unknown>>());
/** Set by flushWriters: until when (performance.now()) a failing batch is tried again. */
const shutdown = processWide("log.batched-writers.shutdown", () => ({ tryUntil: Infinity }));

/**
 * The process's writer named `options.name`, made on first use. A later call with the same name gets
 * the writer the first one made (its options included), as every copy of the library must share it.
 */
export function batchedWriter<T>(options: BatchedWriterOptions<T>): BatchedWriter<T> {
  const existing = writers.get(options.name);
  if (existing) return existing;
  const writer = createWriter(options);
  writers.set(options.name, writer);
  return writer;
}

/**
 * Writes what every writer holds (shutdown, and tests); resolves when all are written or, once
 * `withinMs` has passed with the database still refusing them, given up (counted lost and logged).
 * After it, failing writes are tried again for as long as before.
 */
export async function flushWriters(withinMs: number = FLUSH_DEADLINE_MS): Promise<void> {
  shutdown.tryUntil = performance.now() + withinMs;
  try {
    await Promise.all([...writers.values()].map((w) => w.flush()));
  } finally {
    shutdown.tryUntil = Infinity;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Full means drop the newest: the rows held stay in the order they came and some are already in a
 * statement under way, so a row once accepted is never displaced by a later one, and what an outage
 * costs is one contiguous stretch, counted and reported in a warning.
 */
function createWriter<T>(options: BatchedWriterOptions<T>): BatchedWriter<T> {
  const giveUpAfterMs = options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  const waiting: T[] = [];
  const counts = { written: 0, dropped: 0, lost: 0, inFlight: 0, droppedUnreported: 0 };
  let timer: NodeJS.Timeout | null = null;
  // One write at a time, in the order the rows came: each flush chains onto the last.
  let chain: Promise<void> = Promise.resolve();

  async function writeBatch(batch: T[]): Promise<void> {
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await options.write(batch);
        counts.written += batch.length;
        return;
      } catch (err) {
        // Jittered, so instances that lost the database together do not return to it together.
        const wait = Math.min(retryAfterMs * 2 ** (attempt - 1), RETRY_WAIT_MAX_MS) * (0.5 + Math.random() / 2);
        const now = performance.now();
        if (now + wait > started + giveUpAfterMs || now + wait > shutdown.tryUntil) {
          // The requests themselves were answered; only their rows are lost.
          counts.lost += batch.length;
          logger().warn({ err, count: batch.length, attempts: attempt, ms: Math.round(now - started) }, `${options.name} rows not written`);
          return;
        }
        await sleep(wait);
      }
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (counts.droppedUnreported) {
      logger().warn({ count: counts.droppedUnreported }, `${options.name} rows dropped: too many waiting to be written`);
      counts.droppedUnreported = 0;
    }
    const rows = waiting.splice(0);
    if (!rows.length) return chain;
    counts.inFlight += rows.length;
    chain = chain.then(async () => {
      for (let i = 0; i < rows.length; i += options.batchSize) {
        const batch = rows.slice(i, i + options.batchSize);
        await writeBatch(batch);
        counts.inFlight -= batch.length;
      }
    });
    return chain;
  }

  function add(row: T): void {
    if (waiting.length + counts.inFlight >= options.maxPending) {
      counts.dropped++;
      counts.droppedUnreported++;
      return;
    }
    waiting.push(row);
    if (waiting.length >= options.batchSize) void flush();
    else if (!timer) {
      timer = setTimeout(() => void flush(), options.flushAfterMs);
      // A row waiting to be written does not keep an idle process alive: shutdown flushes it.
      timer.unref();
    }
  }

  function stats(): WriterStats {
    return { written: counts.written, dropped: counts.dropped, lost: counts.lost, pending: waiting.length + counts.inFlight };
  }

  return { add, flush, stats };
}
