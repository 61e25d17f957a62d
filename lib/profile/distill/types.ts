// The distiller contract: what goes in (a conversation's messages) and what comes out (durable facts about the user).
export type DistillRole = "user" | "assistant" | "system" | "tool";

export interface DistillMessage {
  role: DistillRole;
  content: string;
  at?: Date | null;
}

export type FactKind =
  | "name"
  | "location"
  | "work"
  | "relationship"
  | "like"
  | "dislike"
  | "preference"
  | "project"
  | "plan"
  | "other";

export const FACT_KINDS: readonly FactKind[] = [
  "name",
  "location",
  "work",
  "relationship",
  "like",
  "dislike",
  "preference",
  "project",
  "plan",
  "other",
];

export interface DistilledFact {
  /** A short canonical statement without a subject, e.g. "Lives in Lisbon", "Has a daughter named Ana". */
  text: string;
  kind: FactKind;
  /** "identity", "work", "relationships", "preferences", "projects/<slug>", "plans" or "other". */
  box: string;
  /** Kind-prefixed dedupe key: the same fact said differently yields the same key. */
  key: string;
  /** The source message's time, when the message carried one. */
  at: Date | null;
  /** Index in `DistillInput.messages` of the user message the fact came from. */
  messageIndex: number;
}

export interface DistillInput {
  messages: DistillMessage[];
  /** Facts the profile already holds; a fact with one of these keys is not returned again. */
  known?: { key: string }[];
}

export interface DistillResult {
  facts: DistilledFact[];
  /** One or two plain sentences about the user built from `facts`; "" when there are none. */
  summary: string;
}

export interface Distiller {
  readonly name: string;
  distill(input: DistillInput): Promise<DistillResult>;
}
