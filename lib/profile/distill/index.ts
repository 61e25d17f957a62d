// The distillers behind commit and import: the contract, the built-in driver and the one the service uses.
import { builtinDistiller } from "./builtin";
import type { Distiller } from "./types";

export * from "./types";
export { builtinDistiller } from "./builtin";

/** The configured distiller. Only the built-in one exists; an LLM driver will sit behind the same interface. */
export function distillerFromConfig(): Distiller {
  return builtinDistiller;
}
