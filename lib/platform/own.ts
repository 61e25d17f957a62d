// Looking a request's value up in a table of our own: only the table's own keys count, so a value such
// as "__proto__" or "constructor" finds nothing instead of Object.prototype's members.
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string | null | undefined): T | undefined {
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}
