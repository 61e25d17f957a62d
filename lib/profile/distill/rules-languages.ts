// The languages the user speaks, a closed class: "at home we speak urdu and punjabi", "I'm fluent in Portuguese",
// "english is my second language, isiZulu first". What the user is learning is read in rules-chat-life.ts.
import { keyOf } from "./normalise";
import type { Candidate } from "./candidate";

export const LANGUAGE_NAMES =
  "english|spanish|french|german|italian|portuguese|dutch|danish|swedish|norwegian|finnish|polish|russian|ukrainian|greek|turkish|arabic|hebrew|hindi|urdu|bengali|tamil|telugu|japanese|korean|mandarin|chinese|cantonese|vietnamese|thai|indonesian|tagalog|swahili|irish|welsh|gaelic|latin|catalan|basque|czech|hungarian|romanian|croatian|serbian|isixhosa|isizulu|afrikaans|te reo|maori|māori|yoruba|igbo|hausa|amharic|farsi|persian|punjabi|sign language|bsl|asl";

// The languages the user speaks: "at home we speak urdu and punjabi", "I'm fluent in Portuguese", "english is my
// second language, isiZulu first", "my first language is Tamil".
const SPEAKS = new RegExp(
  `\\b(?:I|we)\\s+(?:(?:also|only|both|all|mostly|still)\\s+)?speak\\s+(?:fluent\\s+)?(${LANGUAGE_NAMES})(?:\\s*(?:,|and|&)\\s*(${LANGUAGE_NAMES}))?\\b`,
  "i",
);
const FLUENT = new RegExp(`\\bI(?:'m|\\s+am)\\s+(?:also\\s+)?(?:fluent|bilingual)\\s+in\\s+(${LANGUAGE_NAMES})(?:\\s*(?:,|and|&)\\s*(${LANGUAGE_NAMES}))?\\b`, "i");
const FIRST_LANGUAGE = new RegExp(
  `^(${LANGUAGE_NAMES})\\s+is\\s+my\\s+(?:first|second|third|native|mother|home)\\s+(?:language|tongue)\\b(?:\\s*,\\s*(${LANGUAGE_NAMES})\\s+first\\b)?|\\bmy\\s+(?:first|native|mother|home)\\s+(?:language|tongue)\\s+is\\s+(${LANGUAGE_NAMES})\\b`,
  "i",
);

export function languageSaid(clause: string): Candidate[] {
  if (!/\b(?:speak|fluent|bilingual|language|tongue)\b/i.test(clause)) return [];
  const m = SPEAKS.exec(clause) ?? FLUENT.exec(clause) ?? FIRST_LANGUAGE.exec(clause);
  if (!m) return [];
  return (
    m
      .slice(1)
      // Everyone here writes English: that they speak it says nothing.
      .filter((l): l is string => !!l && l.toLowerCase() !== "english")
      .map((l) => {
        // "Urdu", and the Nguni languages as their speakers write them: "isiZulu".
        const name = (l.charAt(0).toUpperCase() + l.slice(1).toLowerCase()).replace(/^Isi(\p{L})/u, (_, c: string) => `isi${c.toUpperCase()}`);
        return { kind: "other" as const, text: `Speaks ${name}`, key: keyOf("other", name, "speaks") };
      })
  );
}
