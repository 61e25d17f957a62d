// The service's clock. Lifetimes (codes, tokens, flows) are decided against now(), which tests
// move forward to cross each boundary without waiting.
import { processWide } from "./process-wide";

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
