// The distillers behind commit and import: the contract, the built-in and LLM drivers, and which one the service uses.
import { builtinDistiller } from "./builtin";
import type { Distiller } from "./types";
import { env } from "../../env";
import { processWideSlot } from "../../process-wide";

export * from "./types";
export { builtinDistiller } from "./builtin";
export type { LlmDistillerOptions } from "./llm";

export interface DistillerSettings {
  DISTILLER: "builtin" | "llm";
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
}

/** The distiller the settings name. The LLM driver always falls back to the built-in one, so a commit never loses its facts. */
export function distillerFromSettings(s: DistillerSettings): Distiller {
  if (s.DISTILLER === "builtin") return builtinDistiller;
  // The type says builtin | llm, but settings arrive from the environment: an unknown name must not pass as "llm".
  if (s.DISTILLER !== "llm") throw new Error(`DISTILLER must be "builtin" or "llm", not ${JSON.stringify(s.DISTILLER)}.`);
  const missing = [!s.LLM_BASE_URL && "LLM_BASE_URL", !s.LLM_MODEL && "LLM_MODEL"].filter(Boolean);
  if (missing.length) throw new Error(`DISTILLER=llm needs ${missing.join(" and ")} to be set.`);
  if (!/^https?:\/\/\S+$/i.test(s.LLM_BASE_URL!) || !URL.canParse(s.LLM_BASE_URL!)) {
    throw new Error("LLM_BASE_URL must be an absolute http(s) URL, e.g. http://127.0.0.1:11434/v1.");
  }
  // The AI SDK loads on first use: a service on the built-in distiller never pays for it at start-up.
  let llm: Promise<Distiller> | undefined;
  const load = () =>
    (llm ??= import("./llm").then(({ createLlmDistiller }) =>
      createLlmDistiller({
        baseUrl: s.LLM_BASE_URL!,
        model: s.LLM_MODEL!,
        ...(s.LLM_API_KEY ? { apiKey: s.LLM_API_KEY } : {}),
        fallback: builtinDistiller,
      }),
    ));
  return { name: "llm", distill: async (input) => (await load()).distill(input), distillApp: async (input) => (await load()).distillApp(input) };
}

const configured = processWideSlot<Distiller>("distill.configured");

/** The distiller the service's configuration (lib/env.ts) names, made once. */
export function distillerFromConfig(): Distiller {
  configured.current ??= distillerFromSettings(env());
  return configured.current;
}
