// Short-lived in-process caches for the lookups every request repeats (API keys, agents, users).
// Entries live at most KEY_CACHE_TTL_MS (≤ 1 s), so a change made on any instance takes effect on
// every instance within a second; a change made in this process clears the cache at once. The
// maps are process-wide, so the API fast path and the app router, which bundle this module
// separately, share them and a clear in one is seen by the other.
import { env } from "../env";
import { processWide } from "../process-wide";

const MAX_ENTRIES = 10_000;
/** Each cache's entries, by cache name. */
const registry = processWide("cache.entries", () => new Map<string, Map<string, unknown>>());

interface Entry<V> {
  value: V;
  /** performance.now() when loaded: an entry's age is time elapsed in this process, which the test clock does not move. */
  fetchedAt: number;
}

/** Each cache's clear count: a load that started before a clear is not stored. */
const generations = processWide("cache.generations", () => new Map<string, number>());

/**
 * Forgets every cache's entries (the service's shutdown: what was read from a database goes with it,
 * so a service started again, on the same database or another, reads afresh).
 */
export function clearAllCaches(): void {
  for (const [name, map] of registry) {
    generations.set(name, (generations.get(name) ?? 0) + 1);
    map.clear();
  }
}

export class TtlCache<V> {
  private readonly map: Map<string, Entry<V>>;

  constructor(private readonly name: string) {
    let map = registry.get(name);
    if (!map) registry.set(name, (map = new Map<string, unknown>()));
    this.map = map as Map<string, Entry<V>>;
  }

  /** The cached value, or undefined when absent or older than KEY_CACHE_TTL_MS. */
  get(key: string, now = performance.now()): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (now - hit.fetchedAt < env().KEY_CACHE_TTL_MS) return hit.value;
    this.map.delete(key);
    return undefined;
  }

  set(key: string, value: V, now = performance.now()): void {
    // Entries expire within a second, so dropping them all at the bound loses little.
    if (this.map.size >= MAX_ENTRIES) this.map.clear();
    this.map.set(key, { value, fetchedAt: now });
  }

  /**
   * Looks up through the cache: `load` runs only on a miss. A load that was under way when the
   * cache was cleared (a revocation in this process) is not stored: it may have read the old row.
   */
  async through(key: string, load: () => Promise<V>): Promise<V> {
    const now = performance.now();
    const hit = this.get(key, now);
    if (hit !== undefined) return hit;
    const generation = generations.get(this.name) ?? 0;
    const value = await load();
    if ((generations.get(this.name) ?? 0) === generation) this.set(key, value, now);
    return value;
  }

  clear(): void {
    generations.set(this.name, (generations.get(this.name) ?? 0) + 1);
    this.map.clear();
  }
}

/**
 * Values made from rows at a version the database keeps (users.profile_version): an entry is good
 * exactly while the version read with it is still the row's, so it needs no expiry, and every
 * instance stays right whatever another one wrote. Bounded: past `maxEntries` the oldest goes.
 */
export class VersionedCache<V> {
  private readonly map: Map<string, { version: string; value: V }>;

  constructor(
    name: string,
    private readonly maxEntries: number,
  ) {
    let map = registry.get(name);
    if (!map) registry.set(name, (map = new Map<string, unknown>()));
    this.map = map as Map<string, { version: string; value: V }>;
  }

  /** The version an entry was made at, if there is one. */
  versionOf(key: string): string | undefined {
    return this.map.get(key)?.version;
  }

  /** The value made at `version`; undefined when absent or made at another version. */
  get(key: string, version: string): V | undefined {
    const hit = this.map.get(key);
    return hit && hit.version === version ? hit.value : undefined;
  }

  set(key: string, version: string, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, { version, value });
  }
}
