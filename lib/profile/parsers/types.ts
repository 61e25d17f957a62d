// The shapes every export parser produces, and the one error they throw for input they cannot read.
import type { z } from "zod";

export type ParsedRole = "user" | "assistant" | "system" | "tool";

export interface ParsedMessage {
  role: ParsedRole;
  content: string;
  at: Date | null;
}

export interface ParsedConversation {
  id: string;
  title: string | null;
  createdAt: Date | null;
  messages: ParsedMessage[];
}

export interface ParsedExport {
  provider: "chatgpt" | "claude";
  conversations: ParsedConversation[];
  instructions: { text: string; at: Date | null }[];
}

export interface ParsedMemory {
  text: string;
  at: Date | null;
}

type PathKey = PropertyKey;

/** Renders a location the way a person would look it up in the file: `conversations[3].mapping["a-b"]`. */
export function formatPath(root: string, path: readonly PathKey[]): string {
  let out = root;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

const ARTICLE_TYPES: Record<string, string> = {
  object: "an object",
  record: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  boolean: "a boolean",
};

function valueAt(value: unknown, path: readonly PathKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Thrown when an export cannot be read as a whole, or a part of it breaks a rule or an import cap.
 * The message names what was wrong and where, because it is shown to the person who uploaded the file.
 */
export class ExportFormatError extends Error {
  override readonly name = "ExportFormatError";

  /** Describes the first problem zod found; `input` is the value that was parsed, `root` its printed path. */
  static fromZod(error: z.ZodError, input: unknown, root: string): ExportFormatError {
    const issue = error.issues[0];
    if (!issue) return new ExportFormatError(`${root} is not valid`);
    const where = formatPath(root, issue.path);
    if (issue.code === "invalid_type") {
      if (valueAt(input, issue.path) === undefined) return new ExportFormatError(`${where} is missing`);
      const expected = ARTICLE_TYPES[issue.expected] ?? issue.expected;
      return new ExportFormatError(`${where} is not ${expected}`);
    }
    if (issue.code === "invalid_value") {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join(", ");
      return new ExportFormatError(`${where} is not one of ${allowed}`);
    }
    return new ExportFormatError(`${where}: ${issue.message}`);
  }
}
