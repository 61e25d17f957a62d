// What the user says has ended: a plan cancelled or done, a job left, a pet that died, a break-up, a
// taste or a diet given up. The distiller returns these as retractions; merge.ts removes the held facts
// they name. Nothing here adds a fact.
import { cleanObject } from "./normalise";
import type { Retraction } from "./merge";

const THING = (raw: string) => cleanObject(raw, { maxWords: 5 }).replace(/^(?:the|my|our|their|a|an)\s+/i, "");

const RULES: [RegExp, Retraction["kinds"], "object" | "slot", string?][] = [
  // Plans: "the Oaxaca trip is cancelled", "not doing Boston after all", "did the camino", "finished the marathon".
  [/(?:^|,\s*)(?:the\s+|my\s+|our\s+)?([^,]+?)\s+(?:is|was|got|has been)\s+(?:cancelled|canceled|called off|off|postponed indefinitely)\b/i, ["plan"], "object"],
  [
    /(?:^I(?:'m|\s+am)?\s+|\bnot\s+)(?:not\s+doing|doing|not\s+going\s+to|going\s+to|cancelled|canceled|called off|scrapped|dropped)\s+(.+?)\s+(?:after all|anymore)\b/i,
    ["plan"],
    "object",
  ],
  [/^I(?:'ve|\s+have)?\s+(?:cancelled|canceled|called off|scrapped)\s+(.+)/i, ["plan"], "object"],
  [/^I\s+(?:did|finished|completed|ran|passed)\s+(.+)/i, ["plan"], "object"],
  [/^(?:the\s+|my\s+|our\s+)?([^,]+?)(?:'s|\s+is)\s+(?:finally\s+|officially\s+)?(?:out|released|live|done|over)\b/i, ["plan", "project"], "object"],
  [/^(?:I'm\s+|we're\s+|I\s+(?:just\s+)?got\s+)?(?:just\s+)?back\s+from\s+(.+)/i, ["plan"], "object"],
  [/^([^,]+?)\s+was\s+(?:so\s+|absolutely\s+|honestly\s+)?(?:amazing|unreal|incredible|brilliant|great|awesome|magical|lovely|perfect|the best)\b/i, ["plan"], "object"],
  // Work: "I quit the guitar shop", "handed my notice in at dishoom", "I'm leaving Iberia", "I left the firm".
  [
    /^I(?:'m|\s+am|\s+have|'ve)?\s+(?:quit|left|leaving|resigned from|handed (?:my|in my) notice in at|handed in my notice at|gave (?:my )?notice at)\s+(?!smoking|drinking|vaping|alcohol|caffeine|sugar)(.+)/i,
    ["work", "project", "like", "other"],
    "object",
  ],
  // Tastes given up: "I gave up spin", "I'm done with valorant", "not into X anymore", "I stopped X".
  [
    /^I(?:'m|\s+am)?\s+(?:gave up|given up|quit|stopped|done with|over|not (?:really )?into)\s+(?!smoking|drinking|vaping|alcohol|caffeine|sugar)(.+)/i,
    ["like", "other"],
    "object",
  ],
  // Diets ended: "I'm not vegan anymore", "I'm eating fish again", "no longer vegetarian".
  [/^I(?:'m|\s+am)\s+(?:not|no longer)\s+(vegan|vegetarian|veggie|pescatarian|keto)\b/i, ["preference"], "object"],
  [/^I(?:'ve|\s+have)?(?:'m|\s+am)?\s+(?:started\s+)?eating\s+(meat|fish|eggs|dairy|pork|beef|chicken)\s+again\b/i, ["preference"], "object"],
  // People and pets: "we broke up", "Bruno died", "we said goodbye to Bruno", "my mom passed".
  [/^(?:we|I)\s+(?:broke up|split up|separated)\b/i, ["relationship"], "slot", "partner"],
  // "me n gary are done", "cian and me are over": the clause's "we" is the couple ("we're done with the kitchen" is not).
  [
    /^we(?:'re|\s+are)\s+(?:so\s+|officially\s+|totally\s+|properly\s+)?(?:done|over|finished|through)\s*(?:for good|lol|haha|tbh)?\s*[.!…]*$/i,
    ["relationship"],
    "slot",
    "partner",
  ],
  [/^(?:I\s+)?(?:broke up|split up)\s+with\s+(.+)/i, ["relationship"], "object"],
  [/^(?:my\s+|our\s+)?(.+?)\s+(?:died|passed away|passed|was put down)\b/i, ["relationship"], "object"],
  [/^(?:we|I)\s+(?:said goodbye to|lost (?:my|our)|had to put down)\s+(.+)/i, ["relationship"], "object"],
];

/** The retractions one clause states (its subject already restored). */
const ENDING =
  /\b(?:back from|was|out|released|live|done|cancel+ed|called off|off|postponed|not|scrapped|dropped|did|finished|completed|ran|passed|quit|left|leaving|resigned|notice|gave up|given up|stopped|done with|over|no longer|again|broke up|split up|separated|died|goodbye|lost|put down)\b/i;

export function retractionsOf(clause: string): Retraction[] {
  const out: Retraction[] = [];
  if (!ENDING.test(clause)) return out;
  for (const [pattern, kinds, by, slot] of RULES) {
    const m = pattern.exec(clause);
    if (!m) continue;
    if (by === "slot") out.push({ kinds, words: "", slot: slot! });
    else {
      const words = THING(m[1]!);
      if (words) out.push({ kinds, words });
    }
    break;
  }
  return out;
}
