// The process's start-up runs once, however many of its bundles ask (the production server's API
// bundle and Next.js's instrumentation both do), and runs again after a shutdown; a shutdown forgets
// what the process read from the database it closes.
import { describe, expect, it } from "vitest";
import { TtlCache, VersionedCache } from "@/lib/platform/cache";
import { startService, stopService } from "@/lib/startup";

describe("startService", () => {
  it("starts once per process; a stop lets a later start run again", async () => {
    const first = startService();
    expect(startService()).toBe(first);
    await first;
    expect(startService()).toBe(first);
    await stopService();
    const again = startService();
    expect(again).not.toBe(first);
    await again;
  });
});

describe("stopService", () => {
  it("forgets every cached read, so a later start, on this database or another, reads afresh", async () => {
    await startService();
    const keys = new TtlCache<string>("tests.startup.keys");
    const reads = new VersionedCache<string>("tests.startup.reads", 10);
    keys.set("k", "key row");
    reads.set("r", "7", "composition");
    expect([keys.get("k"), reads.get("r", "7")]).toEqual(["key row", "composition"]);
    await stopService();
    expect([keys.get("k"), reads.get("r", "7")]).toEqual([undefined, undefined]);
    // A load that was under way when the service stopped is not kept either.
    let finish!: (row: string) => void;
    const loading = keys.through("late", () => new Promise<string>((resolve) => (finish = resolve)));
    await startService();
    await stopService();
    finish("old row");
    expect(await loading).toBe("old row");
    expect(keys.get("late")).toBeUndefined();
  });
});
