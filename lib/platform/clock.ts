// The service's clock. Wall time on the server is read here and nowhere else (lint refuses Date.now()
// and new Date() elsewhere): lifetimes (codes, tokens, flows), gates (the 30-minute commit gate), and
// every time stored or shown are decided against now(), which tests move forward to cross each
// boundary without waiting. Time elapsed within the process (a latency logged, a time slice, a cache
// entry's age, a retry's wait) is measured with performance.now() instead: monotonic, never moved.
import { processWide } from "../process-wide";

const clock = processWide("clock", () => ({ offsetMs: 0 }));

/** The current time. */
export function now(): Date {
  return new Date(Date.now() + clock.offsetMs);
}

/** Tests: moves the clock forward by ms. */
export function advanceClockForTests(ms: number): void {
  clock.offsetMs += ms;
}

/** Tests: back to the real time. */
export function resetClockForTests(): void {
  clock.offsetMs = 0;
}
