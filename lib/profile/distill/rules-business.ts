// A business of the user's own, by its name, read over a whole message (clauses split at "and", which
// "&" reads as, and a name like "Suds & Snouts" must stay whole): "the mobile business is called Suds &
// Snouts", "business is Pine & Tide Photo", "started my own company, Delgado Heating & Air", "Coastline
// Electrical is officially a thing", "renamed it Wild Roots", "Colby Roofing LLC". Only the user's: "my",
// "our", or the business of someone who says "business" of their own; "the company is called Acme" (an
// employer, a client) and "my sister's company" are not.
import { keyOf } from "./normalise";
import type { Candidate } from "./candidate";

// Capitalised words, joined by "&" or "and" where the name has them: up to four.
const NAME = "(\\p{Lu}[\\p{L}'’-]*(?:\\s+(?:(?:&|and)\\s+)?\\p{Lu}[\\p{L}'’-]*){0,3})";
const KIND = "(?:business|company|shop|salon|food truck|truck|cafe|café|bakery|brand|studio|pharmacy|practice|firm|restaurant|store)";
const NAMED = [
  new RegExp(`\\b(?:my|our)\\s+(?:(?:own|new|little|small|mobile)\\s+)*${KIND}\\s+(?:is\\s+|will be\\s+)?(?:called|named)\\s+${NAME}`, "u"),
  new RegExp(`(?:^|[.!?,;]\\s*)(?:the\\s+)?(?:(?:new|little|small|mobile)\\s+)*business\\s+(?:is\\s+(?:called\\s+|named\\s+)?|will be\\s+(?:called\\s+)?)${NAME}`, "u"),
  new RegExp(`\\b(?:started|opened|launched|founded)\\s+my\\s+own\\s+(?:[\\p{L}-]+\\s+)?${KIND}\\s*[,:-]\\s*${NAME}`, "u"),
  new RegExp(`(?:^|[.!?]\\s+)${NAME}\\s+is\\s+(?:now\\s+)?officially\\s+(?:open|a thing|launched|live|registered|mine)\\b`, "u"),
  new RegExp(`\\brenamed\\s+(?:it|the\\s+${KIND})\\s+${NAME}`, "u"),
  new RegExp(`\\b(?:filed|registered|formed)\\s+(?:the|my|an?)\\s+LLC\\b[^.!?]*?[.!?]?\\s*${NAME}\\s+LLC\\b`, "u"),
];
const SOMEONE_ELSES =
  /\b(?:his|her|their|(?:\p{L}+)'s)\s+(?:(?:own|new|little|small|mobile)\s+)*(?:business|company|shop|salon|cafe|bakery|brand|studio|firm|restaurant|store)\b/iu;

/** The name of the user's own business as a work fact, or null. */
export function businessNamed(message: string): Candidate | null {
  if (!/\b(?:called|named|business|own|officially|renamed|LLC)\b/.test(message) || SOMEONE_ELSES.test(message)) return null;
  for (const pattern of NAMED) {
    const name = pattern.exec(message)?.[1]?.replace(/\s+and$/, "");
    if (name) return { kind: "work", text: `Runs ${name}`, key: keyOf("work", `run ${name}`) };
  }
  return null;
}
