// VersionedCache (lib/platform/cache.ts): a value is handed out only at the version it was made at,
// and the cache keeps at most its bound, dropping the entries made longest ago.
import { describe, expect, it } from "vitest";
import { VersionedCache } from "@/lib/platform/cache";

describe("VersionedCache", () => {
  it("hands a value out only at the version it was made at", () => {
    const cache = new VersionedCache<{ n: number }>("test.versioned-at", 10);
    const made = { n: 1 };
    cache.set("a", "7", made);
    expect(cache.get("a", "7")).toBe(made);
    expect(cache.get("a", "8")).toBeUndefined();
    expect(cache.versionOf("a")).toBe("7");
    expect(cache.versionOf("b")).toBeUndefined();
    cache.set("a", "8", { n: 2 });
    expect(cache.get("a", "7")).toBeUndefined();
    expect(cache.get("a", "8")).toEqual({ n: 2 });
  });

  it("keeps at most its bound, the entries made longest ago going first", () => {
    const cache = new VersionedCache<number>("test.versioned-bound", 2);
    cache.set("a", "1", 1);
    cache.set("b", "1", 2);
    // Made again: now the newest.
    cache.set("a", "2", 3);
    cache.set("c", "1", 4);
    expect(cache.versionOf("b")).toBeUndefined();
    expect(cache.get("a", "2")).toBe(3);
    expect(cache.get("c", "1")).toBe(4);
  });
});
