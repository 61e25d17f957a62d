// The service's clock. Lifetimes (codes, tokens, flows) are decided against now(), which tests
// move forward to cross each boundary without waiting.
let offsetMs = 0;

/** The current time. */
export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** Tests: moves the clock forward by ms. */
export function advanceClockForTests(ms: number): void {
  offsetMs += ms;
}

/** Tests: back to the real time. */
export function resetClockForTests(): void {
  offsetMs = 0;
}
