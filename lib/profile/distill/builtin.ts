// The built-in distiller: deterministic rules over the user's own messages (and over what a connected
// app shows, lib/profile/distill/apps.ts), no network and no model.
import { distillAppSync } from "./apps";
import { clausesOf, type Clause } from "./text";
import type { Candidate } from "./candidate";
import { candidatesOf } from "./rules";
import { factText } from "./normalise";
import { summarise } from "./summary";
import { BOX_OF_KIND } from "./boxes";
import { retractionsOf } from "./retract";
import { narrower, retracts, type Retraction } from "./merge";
import { newNumberName, signedOffName } from "./rules-chat-self";
import { PRONOUN_NAMED } from "./rules-named";
import { retiredFrom } from "./rules-retired";
import { businessNamed } from "./rules-business";
import { RELATIONS } from "./lexicon";
import type { DistilledFact, Distiller, DistillInput, DistillResult } from "./types";

// Messages are capped by the commit route; the cap here only bounds the work on unchecked callers.
const MAX_MESSAGE_CHARS = 16_000;

interface Found extends Candidate {
  messageIndex: number;
  at: Date | null;
}

// "the traffic here, I hate it": a pronoun object stands for the bare noun phrase just before it.
const PRONOUN_OBJECT = /\b(hate|love|loathe|adore|stand)\s+(?:it|them)\b/i;
const BARE_PHRASE = /^(?:(?:the|my|our|this|no|pls|please|and|also)\s+)*([\p{L}-]+(?:\s+[\p{L}-]+){0,3})$/iu;
const NOT_BARE = /\b(?:is|are|was|were|'s|I|we|you|he|she|they|it|have|has|do|does|did|can|will|would)\b/i;

// "playing netball again on tuesdays, I've always loved it": the object of the speaker's own activity.
const ACTIVITY = /^I(?:'m|\s+am|'ve been|\s+have been)\s+(?:\w+ly\s+)?(?:playing|doing|learning|watching|reading|going to|trying)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)/iu;
const PRONOUN_LOVE = /\b(loved?|hate|hated|adore|enjoy(?:ed)?)\s+(?:it|them)\b/i;

// "I adopted a cat! Her name is Pipoca": the name goes to the noun just before ("my cat Pipoca").
const LAST_NOUN = /\b(?:a|an|my|our)\s+(?:[\p{L}-]+\s+){0,3}?([\p{L}-]+)(?:\s+(?:tho|though|lol|haha|now|too))?$/iu;

// "my daughter is 4 months and wont sleep" … "her name is nova btw": the relation last named, in this message or an earlier one.
const KIN_MENTION = /\b(?:my|our)\s+(?:(?:little|baby|new|eldest|youngest|older|younger)\s+)?([\p{L}-]+)/giu;

function lastKinOf(text: string, held: string | undefined): string | undefined {
  let kin = held;
  if (/\b(?:my|our)\s/i.test(text)) for (const m of text.matchAll(KIN_MENTION)) if (RELATIONS[m[1]!.toLowerCase()]) kin = m[1]!.toLowerCase();
  return kin;
}

function resolvePronoun(clause: Clause, previous: Clause | undefined, lastKin?: string): Clause {
  const named = PRONOUN_NAMED.exec(clause.text);
  if (named && !previous && lastKin) {
    const name = named[1]!.charAt(0).toUpperCase() + named[1]!.slice(1);
    return { ...clause, text: `my ${lastKin} ${name}`, about: "speaker" };
  }
  if (!previous) return clause;
  if (named) {
    const noun = LAST_NOUN.exec(previous.text)?.[1];
    const name = named[1]!.charAt(0).toUpperCase() + named[1]!.slice(1);
    return noun ? { ...clause, text: `my ${noun.toLowerCase()} ${name}`, about: "speaker" } : clause;
  }
  const activity = PRONOUN_LOVE.test(clause.text) ? ACTIVITY.exec(previous.text) : null;
  if (activity) {
    const thing = activity[1]!.replace(/\s+(?:again|on|at|in|with|every|lol|now|too)$/i, "");
    return { ...clause, text: clause.text.replace(PRONOUN_LOVE, (_, verb: string) => `${verb} ${thing}`) };
  }
  if (!PRONOUN_OBJECT.test(clause.text)) return clause;
  const bare = BARE_PHRASE.exec(previous.text);
  if (!bare || NOT_BARE.test(previous.text)) return clause;
  return { ...clause, text: clause.text.replace(PRONOUN_OBJECT, (_, verb: string) => `${verb} ${bare[1]}`) };
}

// "i LOVE 6am lectures 🙃", "i LOVE gatsby (its not)": said to mean the opposite, so no taste is read from it.
const SARCASM = /🙃|(?:^|\s)\/s\b|\((?:not|it'?s not|its not|jk|lol jk|kidding)\)/iu;
const SHOUTED_LOVE_ROLLED = /\b(?:LOVE|LOVED|ADORE)\b[^]*🙄/u;
const TASTE_KINDS: ReadonlySet<string> = new Set(["like", "dislike"]);

function collect(input: DistillInput, retractions: Retraction[]): Found[] {
  const found: Found[] = [];
  let lastKin: string | undefined;
  // "got a job at the spar … quit the spar last week": a retraction also ends what this input said before it.
  const saidAfter = new Map<Retraction, number>();
  input.messages.forEach((message, messageIndex) => {
    // Only the user speaks for the user: an assistant's "You live in Paris, right?" is not a fact.
    if (message.role !== "user" || typeof message.content !== "string") return;
    const signed = signedOffName(message.content) ?? newNumberName(message.content);
    if (signed) found.push({ ...signed, messageIndex, at: message.at ?? null });
    let previous: Clause | undefined;
    const kinBefore = lastKin;
    lastKin = lastKinOf(message.content, lastKin);
    const sarcastic = SARCASM.test(message.content) || SHOUTED_LOVE_ROLLED.test(message.content);
    for (const raw of clausesOf(message.content.slice(0, MAX_MESSAGE_CHARS))) {
      const clause = resolvePronoun(raw, previous, kinBefore);
      previous = raw;
      const ended = clause.mood === "statement" && clause.about !== "other" ? retractionsOf(clause.text) : [];
      for (const r of ended) saidAfter.set(r, found.length);
      retractions.push(...ended);
      for (const candidate of candidatesOf(clause, ended.length > 0)) {
        // "my mom passed", "we cancelled the trip": the clause ends what it mentions.
        if (ended.some((r) => r.kinds.includes(candidate.kind)) || (sarcastic && TASTE_KINDS.has(candidate.kind))) continue;
        found.push({ ...candidate, messageIndex, at: message.at ?? null });
      }
    }
    // After the clauses, so that the job it ended joins the plain "Is retired" a clause may have read.
    const retired = retiredFrom(message.content);
    if (retired) {
      // "41 years an electrician … 6 years retired": the job is the one retired from, not held.
      const { fact, job } = retired;
      for (let i = found.length - 1; job && i >= 0 && found[i]!.messageIndex === messageIndex; i--) {
        if (found[i]!.kind === "work" && found[i]!.text.toLowerCase().includes(job)) found.splice(i, 1);
      }
      found.push({ ...fact, messageIndex, at: message.at ?? null });
    }
    const business = businessNamed(message.content.slice(0, MAX_MESSAGE_CHARS));
    if (business) found.push({ ...business, messageIndex, at: message.at ?? null });
  });
  return found.filter((f, i) => !retractions.some((r) => (saidAfter.get(r) ?? -1) > i && retracts(r, f)));
}

/** "My name is Alejandra but everyone calls me Ale": one fact, "Is called Alejandra, goes by Ale". */
function fuseNickname(found: Found[]): Found[] {
  const name = found.find((f) => f.slot === "name");
  const nick = found.find((f) => f.slot === "nickname");
  if (!name || !nick) return found;
  const fused = { ...name, text: `${name.text}, ${nick.text.charAt(0).toLowerCase()}${nick.text.slice(1)}` };
  return found.filter((f) => f !== nick).map((f) => (f === name ? fused : f));
}

/** Latest wins per single-valued slot; one fact per key; nothing the profile already holds. */
function resolve(found: Found[], known: ReadonlySet<string>): Found[] {
  const lastOfSlot = new Map<string, number>();
  found.forEach((f, i) => f.slot && lastOfSlot.set(f.slot, i));
  const lastOfKey = new Map<string, number>();
  found.forEach((f, i) => {
    if (!f.slot || lastOfSlot.get(f.slot) === i) lastOfKey.set(f.key, i);
  });
  // "Has a wife" adds nothing next to "Has a wife named Helen" (relationship:wife vs relationship:wife:helen).
  const named = new Set<string>();
  for (const key of [...lastOfKey.keys(), ...known]) {
    const parts = key.split(":");
    if (parts[0] === "relationship" && parts.length > 2) named.add(parts.slice(0, -1).join(":"));
  }
  const kept = fuseNickname(found.filter((f, i) => lastOfKey.get(f.key) === i && !known.has(f.key) && !(f.kind === "relationship" && named.has(f.key))));
  // "Works as an electrician" adds nothing next to "Works as an electrician in Perth".
  return kept.filter((f) => f.kind === "relationship" || f.slot || !kept.some((g) => g !== f && narrower(f, g)));
}

export function distillSync(input: DistillInput): DistillResult {
  const known = new Set((input.known ?? []).map((k) => k.key));
  const retractions: Retraction[] = [];
  const facts: DistilledFact[] = resolve(collect(input, retractions), known).map((f) => ({
    text: factText(f.text),
    kind: f.kind,
    box: f.box ?? BOX_OF_KIND[f.kind],
    key: f.key,
    at: f.at,
    messageIndex: f.messageIndex,
    ...(f.slot ? { slot: f.slot } : {}),
  }));
  return { facts, summary: summarise(facts), ...(retractions.length ? { retractions } : {}) };
}

export const builtinDistiller: Distiller = {
  name: "builtin",
  async distill(input) {
    return distillSync(input);
  },
  async distillApp(input) {
    return distillAppSync(input);
  },
};
