// The built-in distiller: what it takes from a conversation, what it refuses, and its measured quality.
import { describe, expect, it } from "vitest";
import { builtinDistiller, distillerFromConfig, type DistillInput, type DistillMessage, type DistilledFact } from "@/lib/profile/distill";
import { factMatches, matchFacts, scoreDistiller, scoreOf } from "@/lib/profile/distill/score";
import { loadFixtures } from "../fixtures/distill/load";

const user = (content: string, at?: Date): DistillMessage => ({ role: "user", content, ...(at ? { at } : {}) });
const assistant = (content: string): DistillMessage => ({ role: "assistant", content });
const distil = (input: DistillInput) => builtinDistiller.distill(input);
const texts = (facts: DistilledFact[]) => facts.map((f) => `${f.kind}: ${f.text}`);

describe("builtin distiller: what counts as a fact", () => {
  it("never takes the assistant's statements, and a bare yes confirms nothing", async () => {
    const { facts, summary } = await distil({
      messages: [user("any bakeries nearby?"), assistant("You live in Paris, right? And you're vegan."), user("yes")],
    });
    expect(facts).toEqual([]);
    expect(summary).toBe("");
  });

  it("takes the user's own correction of the assistant", async () => {
    const { facts } = await distil({ messages: [assistant("You live in Paris, right?"), user("No, I live in Lyon actually.")] });
    expect(texts(facts)).toEqual(["location: Lives in Lyon"]);
  });

  it("ignores system and tool messages", async () => {
    const { facts } = await distil({
      messages: [
        { role: "system", content: "I live in Oslo and I love jazz." },
        { role: "tool", content: "My name is Robot." },
      ],
    });
    expect(facts).toEqual([]);
  });

  it("reads negations the right way round", async () => {
    expect(texts((await distil({ messages: [user("I don't like olives.")] })).facts)).toEqual(["dislike: Dislikes olives"]);
    expect(texts((await distil({ messages: [user("I'm not a fan of horror movies")] })).facts)).toEqual(["dislike: Dislikes horror movies"]);
    expect(texts((await distil({ messages: [user("I don't eat pork")] })).facts)).toEqual(["preference: Doesn't eat pork"]);
    expect((await distil({ messages: [user("I'm not vegan. I don't live in London anymore. I'm not married.")] })).facts).toEqual([]);
  });

  it("takes nothing from hypotheticals, wishes and role-play", async () => {
    const { facts } = await distil({
      messages: [
        user("If I lived in Tokyo, which neighbourhood would suit me?"),
        user("Imagine I'm a chef in Paris - what would my day look like?"),
        user("What if I moved to Canada? Suppose I'm a nurse there."),
        user("I wish I lived by the sea. I think I'm allergic to cats."),
        user("Let's role-play: I'm a detective from London and I love whisky."),
      ],
    });
    expect(facts).toEqual([]);
  });

  it("takes nothing from questions or passing states", async () => {
    const { facts } = await distil({
      messages: [
        user("Do you think I should move to Berlin? Is it normal that I hate running?"),
        user("I'm tired today and I'm at the airport."),
        user("I'm going to the gym now. I'm working on an email right now."),
      ],
    });
    expect(facts).toEqual([]);
  });

  it("keeps facts stated before a question in the same sentence", async () => {
    const { facts } = await distil({ messages: [user("Since I'm vegetarian, what can I cook? I'm a nurse, any tips for night shifts")] });
    expect(texts(facts)).toEqual(["preference: Is vegetarian", "work: Works as a nurse"]);
  });

  it("records a relative's existence, not the relative's facts as the user's", async () => {
    const { facts } = await distil({ messages: [user("My brother lives in Oslo and my wife loves gardening.")] });
    expect(texts(facts)).toEqual(["relationship: Has a brother", "relationship: Has a wife"]);
  });

  it("names people and pets, and a named relation replaces the unnamed one", async () => {
    const { facts } = await distil({
      messages: [user("My daughter loves school."), user("My daughter Ana is 6 and we have a cat called Miso.")],
    });
    expect(texts(facts)).toEqual(["relationship: Has a daughter named Ana", "relationship: Has a cat named Miso"]);
  });

  it("extracts each kind into its box", async () => {
    const { facts } = await distil({
      messages: [
        user("Hi, I'm Priya. I work as a data analyst at a hospital and I live in Leeds."),
        user("I love trail running. I prefer metric units. I'm building a budgeting app in Rust."),
        user("I'm planning to run a marathon in October. I'm learning Japanese."),
      ],
    });
    expect(facts.map((f) => [f.kind, f.box, f.text])).toEqual([
      ["name", "identity", "Is called Priya"],
      ["work", "work", "Works as a data analyst at a hospital"],
      ["location", "identity", "Lives in Leeds"],
      ["like", "preferences", "Likes trail running"],
      ["preference", "preferences", "Prefers metric units"],
      ["project", "projects/budgeting-app", "Is building a budgeting app in Rust"],
      ["plan", "plans", "Plans to run a marathon in October"],
      ["other", "other", "Is learning Japanese"],
    ]);
  });

  it("records which message a fact came from and when", async () => {
    const at = new Date("2026-03-01T10:00:00Z");
    const { facts } = await distil({ messages: [assistant("Hello!"), user("I live in Porto", at), user("I love jazz")] });
    expect(facts.map((f) => [f.messageIndex, f.at])).toEqual([
      [1, at],
      [2, null],
    ]);
  });

  it("caps fact text at 200 characters", async () => {
    const long = Array.from({ length: 80 }, (_, i) => `thing${i}`).join(", ");
    const { facts } = await distil({ messages: [user(`I love ${long}`)] });
    expect(facts).toHaveLength(1);
    expect(facts[0]!.text.length).toBeLessThanOrEqual(200);
  });
});

describe("builtin distiller: dedupe and contradictions", () => {
  it("returns one fact for the same thing said twice, differently", async () => {
    const { facts } = await distil({
      messages: [user("I love trail running."), user("I really enjoy trail running a lot!"), user("I'm based in Lisbon. We live in Lisbon.")],
    });
    expect(texts(facts)).toEqual(["like: Likes trail running", "location: Lives in Lisbon"]);
  });

  it("does not return what the profile already holds", async () => {
    const first = await distil({ messages: [user("I live in Lisbon and I love jazz.")] });
    const again = await distil({ messages: [user("I'm based in Lisbon. I really love jazz. I'm a nurse.")], known: first.facts });
    expect(texts(again.facts)).toEqual(["work: Works as a nurse"]);
  });

  it("keeps the latest location and name within one input", async () => {
    const { facts } = await distil({
      messages: [user("I live in Porto. Call me Al."), user("Oh, I moved to Lisbon in January. My name is Alice.")],
    });
    expect(texts(facts)).toEqual(["location: Lives in Lisbon", "name: Is called Alice"]);
    expect(facts.every((f) => f.messageIndex === 1)).toBe(true);
  });

  it("keeps where the user lives and where they come from apart", async () => {
    const { facts } = await distil({ messages: [user("I'm from Brazil but live in Lisbon now.")] });
    expect(texts(facts)).toEqual(["location: Is from Brazil", "location: Lives in Lisbon"]);
  });

  it("lets a later dislike replace an earlier like of the same thing", async () => {
    const { facts } = await distil({ messages: [user("I like olives."), user("Actually I hate olives.")] });
    expect(texts(facts)).toEqual(["dislike: Dislikes olives"]);
  });
});

describe("builtin distiller: summary and determinism", () => {
  it("summarises facts in plain sentences, and is empty without facts", async () => {
    const { summary } = await distil({
      messages: [user("My name is Sam. I live in Lisbon and I'm a nurse. I love trail running and I have a daughter named Ana.")],
    });
    expect(summary).toBe("The user is called Sam, lives in Lisbon and works as a nurse. The user also has a daughter named Ana and likes trail running.");
    expect((await distil({ messages: [user("thanks, that's all")] })).summary).toBe("");
    expect((await distil({ messages: [] })).summary).toBe("");
  });

  it("gives the same output for the same input", async () => {
    const cases = loadFixtures("dev");
    const once = await Promise.all(cases.map((c) => distil({ messages: c.messages })));
    const twice = await Promise.all(cases.map((c) => distil({ messages: c.messages })));
    expect(twice).toEqual(once);
  });

  it("is the configured distiller", () => {
    expect(distillerFromConfig()).toBe(builtinDistiller);
    expect(builtinDistiller.name).toBe("builtin");
  });
});

describe("distillation scoring", () => {
  it("matches on kind and whole words, ignoring case", () => {
    expect(factMatches({ kind: "like", text: "Likes trail running" }, { kind: "like", words: ["Trail Running"] })).toBe(true);
    expect(factMatches({ kind: "like", text: "Likes Dart" }, { kind: "like", words: ["art"] })).toBe(false);
    expect(factMatches({ kind: "like", text: "Likes sci-fi" }, { kind: "like", words: ["sci-fi"] })).toBe(true);
    expect(factMatches({ kind: "dislike", text: "Dislikes olives" }, { kind: "like", words: ["olives"] })).toBe(false);
    expect(factMatches({ kind: "work", text: "Works as a nurse" }, { kind: "work", words: ["nurse", "Leeds"] })).toBe(false);
  });

  it("matches each expected fact to at least one and at most one extracted fact, maximally", () => {
    const extracted = [
      { kind: "preference" as const, text: "Wants the assistant to always answer in British English and use metric units" },
      { kind: "preference" as const, text: "Prefers metric units" },
    ];
    // Greedy in order would give "metric" the first fact and leave "British English" unmatched.
    const pairs = matchFacts(extracted, [
      { kind: "preference", words: ["metric"] },
      { kind: "preference", words: ["British English"] },
    ]);
    expect(pairs).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(
      matchFacts(
        [extracted[1]!],
        [
          { kind: "preference", words: ["metric"] },
          { kind: "preference", words: ["metric"] },
        ],
      ),
    ).toHaveLength(1);
  });

  it("computes precision, recall and F1, an empty side counting as perfect", () => {
    expect(scoreOf({ extracted: 4, expected: 5, matched: 3 })).toMatchObject({ precision: 0.75, recall: 0.6 });
    expect(scoreOf({ extracted: 4, expected: 5, matched: 3 }).f1).toBeCloseTo(2 / 3);
    expect(scoreOf({ extracted: 0, expected: 0, matched: 0 })).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    expect(scoreOf({ extracted: 2, expected: 0, matched: 0 })).toMatchObject({ precision: 0, recall: 1 });
  });
});

describe("builtin distiller: measured quality", () => {
  const dev = loadFixtures("dev");
  const heldout = loadFixtures("heldout");

  it("has a labelled set of at least 48 conversations, 16 of them held out", () => {
    expect(dev.length + heldout.length).toBeGreaterThanOrEqual(48);
    expect(heldout.length).toBeGreaterThanOrEqual(16);
    expect(new Set([...dev, ...heldout].map((c) => c.id)).size).toBe(dev.length + heldout.length);
  });

  it("reaches precision ≥ 0.9 and recall ≥ 0.7 over dev and held-out together", async () => {
    const { overall } = await scoreDistiller({ distiller: builtinDistiller, cases: [...dev, ...heldout] });
    expect(overall.precision).toBeGreaterThanOrEqual(0.9);
    expect(overall.recall).toBeGreaterThanOrEqual(0.7);
  });
});
