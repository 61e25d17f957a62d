// The `required` grammar: what a person must connect or import before Continue turns on. An entry
// is a set of alternatives (any one meets it); every entry must be met. Two readings: the
// authorize URL's (and a sign-in link's), which drops what it does not know, and a partner session's,
// which refuses it. The ways in read it when they open a flow; the flow applies it on its screens.
import { z } from "zod";
import { ANY_MAILBOX, ASSISTANTS, IMPORT_SCREEN_APPS, isAssistant, isImportScreenApp, isMailbox, MAILBOX_APPS, type Assistant, type ImportScreenApp } from "../catalogue";

/**
 * What a required entry may name: every assistant, and every app the import screen offers (an entry
 * moves its names to the top of that screen's lists). Sheets is not among them: only a sign-in link
 * naming it offers it, and that link ignores required.
 */
export type RequiredName = Assistant | ImportScreenApp;
/** One entry: its alternatives, `email` already expanded to every mailbox. */
export type RequiredEntry = RequiredName[];

/** Required entries as stored (a flow's, a partner session's): already parsed, so only known names. */
export const storedRequired = z.array(z.array(z.enum([...ASSISTANTS, ...IMPORT_SCREEN_APPS]))) satisfies z.ZodType<RequiredEntry[]>;

/** The valid names in the order an entry lists its alternatives: assistants, mailboxes, the other apps; then `email`. */
export const REQUIRED_NAMES: readonly (RequiredName | typeof ANY_MAILBOX)[] = [...ASSISTANTS, ...MAILBOX_APPS, ...IMPORT_SCREEN_APPS.filter((a) => !isMailbox(a)), ANY_MAILBOX];

function expand(name: string): RequiredName[] | null {
  const n = name.trim().toLowerCase();
  if (n === ANY_MAILBOX) return [...MAILBOX_APPS];
  return isAssistant(n) || isImportScreenApp(n) ? [n] : null;
}

/** An entry's alternatives in a stable order, without repeats. */
function entry(names: RequiredName[]): RequiredEntry {
  return REQUIRED_NAMES.filter((n): n is RequiredName => (names as string[]).includes(n));
}

/**
 * The authorize URL's `required` (already URL-decoded): entries separated by ',', alternatives by
 * '|'. Unknown names are dropped without error, and an entry left with nothing no longer holds:
 * the specification's "a typo silently removes the requirement".
 */
export function parseRequiredParam(raw: string | null | undefined): RequiredEntry[] {
  if (!raw) return [];
  const entries: RequiredEntry[] = [];
  for (const part of raw.split(",")) {
    const names = part.split("|").flatMap((n) => expand(n) ?? []);
    if (names.length) entries.push(entry(names));
  }
  return dedupe(entries);
}

export class RequiredError extends Error {
  constructor(
    message: string,
    readonly rejected: string[],
  ) {
    super(message);
    this.name = "RequiredError";
  }
}

/**
 * A partner session's `required`: a JSON list whose items are names or inner lists of alternatives
 * ([['gmail','outlook'],'chatgpt'] is a mailbox and chatgpt; a flat ['gmail','outlook'] is both).
 * Unknown names, assistants that are not among the session's sources, and anything not a list are
 * refused, naming what was not accepted.
 */
export function parseRequiredList(value: unknown, options: { sources?: readonly string[] } = {}): RequiredEntry[] {
  if (!Array.isArray(value)) throw new RequiredError("required must be a list", []);
  const rejected: string[] = [];
  const entries: RequiredEntry[] = [];
  for (const item of value) {
    const alternatives = Array.isArray(item) ? item : [item];
    const names: RequiredName[] = [];
    for (const alt of alternatives) {
      const expanded = typeof alt === "string" ? expand(alt) : null;
      if (!expanded) {
        rejected.push(typeof alt === "string" ? alt : JSON.stringify(alt));
        continue;
      }
      const notASource = expanded.find((n) => isAssistant(n) && options.sources && !options.sources.includes(n));
      if (notASource) rejected.push(notASource);
      else names.push(...expanded);
    }
    if (names.length) entries.push(entry(names));
  }
  if (rejected.length) throw new RequiredError(`required names what this session does not accept: ${rejected.join(", ")}`, rejected);
  return dedupe(entries);
}

function dedupe(entries: RequiredEntry[]): RequiredEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const k = e.join("|");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Whether every entry is met by what the person has connected or imported. */
export function requiredMet(entries: readonly RequiredEntry[], have: Iterable<string>): boolean {
  const got = new Set(have);
  return entries.every((e) => e.some((n) => got.has(n)));
}

/** An entry made only of mailboxes (email, gmail|outlook, gmail, outlook): the mailbox page comes first for it. */
export function isMailboxOnly(e: RequiredEntry): boolean {
  return e.length > 0 && e.every((n) => isMailbox(n));
}
