/** Whether .next holds a build of the current sources: "current", "stale" (older than them) or "missing" (none, or half made). */
export declare function buildState(root?: string): "current" | "stale" | "missing";
/** The pid of an instance serving this checkout's build, or null. */
export declare function runningInstance(root?: string): number | null;
