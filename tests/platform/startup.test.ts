// The process's start-up runs once, however many of its bundles ask (the production server's API
// bundle and Next.js's instrumentation both do), and runs again after a shutdown.
import { describe, expect, it } from "vitest";
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
