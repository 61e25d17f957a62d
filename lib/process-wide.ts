// The process's shared state: one value per key, however many copies of lib/ the process loads (the
// API fast path bundle and Next.js's chunks each carry their own). This module imports nothing from
// lib/ so any module, lib/env.ts included, can keep its state here.

/** Where the values live: one registry per process, found through the global symbol registry. */
const REGISTRY = Symbol.for("profile-signin-service.process-wide");

type Holder = typeof globalThis & { [REGISTRY]?: Map<string, unknown> };

// Every copy of this module finds the same Map: the first to load creates it.
const registry: Map<string, unknown> = ((globalThis as Holder)[REGISTRY] ??= new Map<string, unknown>());

/**
 * The one value for `key` in this process, made by `init` on first use. Keys name their owner
 * (`"db"`, `"oidc.key-ring"`): two modules asking for one key would share a value of two types.
 * If `init` throws, nothing is kept and the next call tries again.
 */
export function processWide<T>(key: string, init: () => T): T {
  if (registry.has(key)) return registry.get(key) as T;
  const value = init();
  registry.set(key, value);
  return value;
}

/** A process-wide holder of one value that comes and goes (a connection opened on use, closed on shutdown). */
export interface Slot<T> {
  current: T | undefined;
}

/** The process-wide slot for `key`, empty until its owner fills it. */
export function processWideSlot<T>(key: string): Slot<T> {
  return processWide<Slot<T>>(key, () => ({ current: undefined }));
}
