// A lazy limiter reads its settings on first use, not when its module loads, and again once the
// stores have closed (a shutdown, or a change of configuration between test files), in memory here.
import { describe, expect, it } from "vitest";
import { closeRateLimitStore, lazyLimiter } from "@/lib/platform/ratelimit";

describe("lazyLimiter", () => {
  it("reads its spec on first use, keeps it while the stores are open, and reads it again after they close", async () => {
    let points = 2;
    let reads = 0;
    const limiter = lazyLimiter(() => (reads++, { name: `tests.lazy-${Math.random()}`, points, durationSeconds: 60 }));
    expect(reads).toBe(0);
    expect(limiter.spec.points).toBe(2);
    points = 1;
    expect([await limiter.consume("a"), await limiter.consume("a")]).toEqual([{ allowed: true }, { allowed: true }]);
    expect(await limiter.consume("a")).toMatchObject({ allowed: false });
    expect(reads).toBe(1);

    await closeRateLimitStore();
    expect(limiter.spec.points).toBe(1);
    expect(reads).toBe(2);
    // The new spec, and a fresh store: one point for "a" again, then refused.
    expect(await limiter.consume("a")).toEqual({ allowed: true });
    expect(await limiter.consume("a")).toMatchObject({ allowed: false });
  });
});
