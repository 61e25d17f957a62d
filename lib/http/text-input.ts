// Text a request may carry: no NUL character and no unpaired UTF-16 surrogate, anywhere. PostgreSQL
// refuses NUL in text ("invalid byte sequence"), and a lone surrogate has no UTF-8 form, so the driver
// silently turns it into U+FFFD: either way the value would not be stored as sent. Every parser of
// request input (defineRoute's query and JSON body, the OAuth form, MCP JSON-RPC bodies, server
// actions' arguments) asks this once, before anything reads the input.
//
// Headers need no check of their own: a Headers object holds ByteStrings without NUL (the fetch
// standard refuses anything else when the request is built), so neither can reach a header value.

/** The message of a refusal, for every field it names. */
export const UNSAFE_TEXT_MESSAGE = "Text may not contain a NUL character or an unpaired UTF-16 surrogate.";

// NUL; a high surrogate not followed by a low one; a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_ALL = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether `text` holds a NUL character or an unpaired surrogate. */
export function isUnsafeText(text: string): boolean {
  return UNSAFE.test(text);
}

/** A key as a field name can show it: what cannot be shown is U+FFFD. */
function shown(key: string): string {
  return key.replace(UNSAFE_ALL, "\ufffd");
}

type Path = ReadonlyArray<string | number>;

/** The named entries of a container (object, array, FormData, URLSearchParams, Map, Set), or null for a leaf. */
function entriesOf(value: object): Array<[key: unknown, child: unknown]> | null {
  if (Array.isArray(value)) return value.map((v, i) => [i, v]);
  if (value instanceof Map) return [...value.entries()];
  if (value instanceof Set) return [...value].map((v, i) => [i, v]);
  if ((typeof FormData !== "undefined" && value instanceof FormData) || Object.prototype.toString.call(value) === "[object FormData]") {
    // (Also a FormData another copy of the platform made: the check must not miss a form.)
    return [...(value as FormData).entries()].map(([k, v]) => [k, typeof v === "string" ? v : v.name]);
  }
  if (value instanceof URLSearchParams) return [...value.entries()];
  if (value instanceof Date || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Blob) return null;
  return Object.entries(value);
}

/** Where a value sits: its key under its parent's place (a linked list, so a deep walk copies no paths). */
type Place = { key: string | number; parent: Place | null } | null;

function fieldName(root: Path, place: Place): string {
  const keys: Array<string | number> = [];
  for (let p = place; p; p = p.parent) keys.push(p.key);
  return [...root, ...keys.reverse()].map(String).join(".") || "(root)";
}

/**
 * The dotted path (as zod names fields: `profile.name`, `items.0`) of the first string at any depth of
 * `value` — a string value or a key — that holds a NUL character or an unpaired surrogate; null when
 * there is none. Walked with an explicit stack, so a deeply nested body cannot exhaust the call stack.
 * A key at fault is named with the fault shown as U+FFFD.
 */
export function unsafeTextField(value: unknown, root: Path = []): string | null {
  const stack: Array<{ value: unknown; place: Place }> = [{ value, place: null }];
  const seen = new Set<object>();
  while (stack.length) {
    const { value: v, place } = stack.pop()!;
    if (typeof v === "string") {
      if (isUnsafeText(v)) return fieldName(root, place);
      continue;
    }
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    const entries = entriesOf(v);
    if (!entries) continue;
    // Pushed in reverse, so the first field in document order is the one named.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (typeof key === "string" && isUnsafeText(key)) return fieldName(root, { key: shown(key), parent: place });
      stack.push({ value: child, place: { key: typeof key === "number" || typeof key === "string" ? key : i, parent: place } });
      // A Map's keys may be values in their own right.
      if (typeof key === "object" && key !== null) stack.push({ value: key, place: { key: i, parent: place } });
    }
  }
  return null;
}

/** A field that holds unsafe text, in the shape the /v1 errors list fields ({ field, message }). */
export function unsafeTextProblem(field: string): { field: string; message: string } {
  return { field, message: UNSAFE_TEXT_MESSAGE };
}
