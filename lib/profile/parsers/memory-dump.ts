// Reads an assistant's memory list, pasted as text, into dated facts.
import type { ParsedMemory } from "./types";

// Bracket contents that look like a timestamp; anything else in brackets ("[Work]") is part of the fact.
const DATE_SLOT = /^\[([0-9][0-9\s:.\-/TZtz+]*)\]\s*(?:[-–—:]\s*)?(.*)$/;
const BULLET = /^(?:[-*•‣▪◦]|\d{1,3}[.)])\s+(.*)$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const QUOTE_PAIRS: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ["“", "”"],
  ["‘", "’"],
  ["«", "»"],
];

/**
 * Dates without a zone are read as UTC: a dump carries no zone, and UTC keeps the same text mapping
 * to the same instant on every server. Impossible dates (2024-02-30, 25:00) give null, never an error,
 * because a wrong date must not cost the user the fact beside it.
 */
export function parseDumpDate(raw: string): Date | null {
  const m = TIMESTAMP.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(frac.padEnd(3, "0").slice(0, 3));
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  // Date.UTC rolls 2024-02-30 over into March; a changed field means the input was not a real date.
  if (
    local.getUTCFullYear() !== year ||
    local.getUTCMonth() !== month - 1 ||
    local.getUTCDate() !== day ||
    local.getUTCHours() !== hour ||
    local.getUTCMinutes() !== minute ||
    local.getUTCSeconds() !== second
  ) {
    return null;
  }
  if (!zone || zone.toUpperCase() === "Z") return local;
  const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!zm) return null;
  const [, sign, zh, zmin] = zm;
  const offsetHours = Number(zh);
  const offsetMinutes = Number(zmin);
  if (offsetHours > 14 || offsetMinutes > 59) return null;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === "-" ? -1 : 1);
  return new Date(local.getTime() - offset);
}

function unquote(text: string): string {
  let out = text.trim();
  for (const [open, close] of QUOTE_PAIRS) {
    if (out.length >= 2 && out.startsWith(open) && out.endsWith(close)) {
      out = out.slice(open.length, -close.length).trim();
      break;
    }
  }
  return out;
}

/** Headings ("Memories:", "# Saved memories") and rules ("---") introduce facts; they are not facts. */
function isHeader(line: string): boolean {
  return line.endsWith(":") || line.startsWith("#") || !/[\p{L}\p{N}]/u.test(line);
}

function parseLine(raw: string): ParsedMemory | null {
  let line = raw.trim();
  if (!line) return null;

  let structured = false;
  const bullet = BULLET.exec(line);
  if (bullet) {
    line = (bullet[1] ?? "").trim();
    structured = true;
  }
  let at: Date | null = null;
  const dated = DATE_SLOT.exec(line);
  if (dated) {
    at = parseDumpDate(dated[1] ?? "");
    line = (dated[2] ?? "").trim();
    structured = true;
  }
  if (!structured && isHeader(line)) return null;

  const text = unquote(line);
  return text ? { text, at } : null;
}

const factKey = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Parses a pasted memory list. Facts appear once, in the order first seen; when the same fact appears
 * again (ignoring case and spacing), the earliest known date wins, since that is when it was first learned.
 */
export function parseMemoryDump(text: string): ParsedMemory[] {
  const byKey = new Map<string, ParsedMemory>();
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const memory = parseLine(raw);
    if (!memory) continue;
    const key = factKey(memory.text);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, memory);
    else if (memory.at && (!seen.at || memory.at < seen.at)) seen.at = memory.at;
  }
  return [...byKey.values()];
}
