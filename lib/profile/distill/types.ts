// The distiller contract: what goes in (a conversation's messages, or what a connected app shows of
// the person) and what comes out (durable facts about the user).
import type { AppSnapshot } from "./snapshot";

export type DistillRole = "user" | "assistant" | "system" | "tool";

export interface DistillMessage {
  role: DistillRole;
  content: string;
  at?: Date | null;
}

export type FactKind = "name" | "location" | "work" | "relationship" | "like" | "dislike" | "preference" | "project" | "plan" | "other";

export const FACT_KINDS: readonly FactKind[] = ["name", "location", "work", "relationship", "like", "dislike", "preference", "project", "plan", "other"];

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
  /** Single-valued slot ("location:live", "work:job", "diet", "taste:<thing>"): a new fact in it replaces the held one (merge.ts). */
  slot?: string;
}

export interface DistillInput {
  messages: DistillMessage[];
  /** Facts the profile already holds; a fact with one of these keys is not returned again. */
  known?: { key: string }[];
}

/** Something the user said has ended or is no longer true: a plan cancelled or done, a pet that died, "not vegan anymore". */
export interface Retraction {
  /** The kinds a held fact must have to be removed. */
  kinds: readonly FactKind[];
  /** Content words (as in keys) a held fact's key must all contain; or a slot it must be in. */
  words: string;
  slot?: string;
}

export interface DistillResult {
  facts: DistilledFact[];
  /** One or two plain sentences about the user built from `facts`; "" when there are none. */
  summary: string;
  /** What the user said has ended or stopped being true ("we cancelled the trip", "not vegan anymore"): held facts to drop (merge.ts). */
  retractions?: Retraction[];
}

/** At most this many facts come from one app at a time. */
export const MAX_APP_FACTS = 10;

export interface AppDistillInput {
  /** Titles, names and signatures read from one connected app (./snapshot.ts). */
  snapshot: AppSnapshot;
  /** Facts the profile already holds; a fact with one of these keys is not returned again. */
  known?: { key: string }[];
  /** What "recent" is measured from (documents untouched for six months are left out); the current time by default. */
  now?: Date;
}

export interface AppFact {
  /** A short canonical statement without a subject, e.g. "Has a weekly 'Team sync' on Mondays". */
  text: string;
  kind: FactKind;
  box: string;
  key: string;
  /** When the app last showed it (the newest sent message or document it rests on); null for a calendar series. */
  at: Date | null;
  /** Indexes in `snapshot.items` of the items it rests on. */
  items: number[];
}

export interface AppDistillResult {
  /** At most MAX_APP_FACTS, one per key. */
  facts: AppFact[];
}

export interface Distiller {
  readonly name: string;
  distill(input: DistillInput): Promise<DistillResult>;
  /** Durable facts from what a connected app shows of the person: never a message's content. */
  distillApp(input: AppDistillInput): Promise<AppDistillResult>;
}
