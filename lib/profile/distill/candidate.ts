// What a rule of the built-in distiller proposes from one clause: a fact before the distiller has
// deduplicated it, given it a box and tied it to its message.
import type { FactKind } from "./types";

export interface Candidate {
  kind: FactKind;
  text: string;
  key: string;
  /** Single-valued slot ("name", "location:live", "diet"): within one input the latest candidate wins. */
  slot?: string;
  /** Overrides the kind's box (projects/<slug>). */
  box?: string;
}

/** One rule: the candidates it reads in a clause, none when it does not apply. */
export type Rule = (clause: string) => Candidate[];
