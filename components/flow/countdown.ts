// The hosted flow's countdowns ("Send a new code in 42 s", "Returning automatically in 5 s") need
// JavaScript: on the server and while the page hydrates they are off, so every form works without it.
import { useEffect, useState, useSyncExternalStore } from "react";

const noChanges = () => () => undefined;

/** Whether this render runs in the browser after hydration: false on the server and while hydrating. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
}

/** The seconds left of a countdown from `seconds`, started again when `seconds` changes; 0 until hydrated. */
export function useCountdown(seconds: number): number {
  const hydrated = useHydrated();
  const [left, setLeft] = useState(seconds);
  const [from, setFrom] = useState(seconds);
  if (from !== seconds) {
    setFrom(seconds);
    setLeft(seconds);
  }
  useEffect(() => {
    if (!hydrated || left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [hydrated, left]);
  return hydrated ? left : 0;
}
