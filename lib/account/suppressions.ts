// What was hidden at the person's request, on their memories page: each suppression with who asked
// (an agent and its developer, or the person) and what it hid, and restoring one. Every function acts
// only on the signed-in person's suppressions.
import { isIdOf, PREFIX } from "../platform/ids";
import { inTransaction } from "../profile/memories";
import { restoreSuppression, suppressionsOf, type SuppressionView } from "../profile/suppressions";
import { AccountError } from "./errors";

export type { SuppressionView };

const NOT_FOUND = "Nothing hidden like that in your profile.";

/** The person's suppressions still holding memories, newest first. */
export async function accountSuppressions(userId: string): Promise<SuppressionView[]> {
  return suppressionsOf(userId);
}

/**
 * Undoes one of the person's suppressions: what it alone hid is shown to agents again (what another
 * suppression also hides stays hidden until that one is restored too). Returns how many memories
 * came back. Not the person's suppression: AccountError not_found.
 */
export async function restoreHidden(input: { userId: string; suppressionId: unknown }): Promise<number> {
  const id = input.suppressionId;
  if (typeof id !== "string" || !isIdOf(PREFIX.suppression, id)) throw new AccountError("not_found", NOT_FOUND);
  const restored = await inTransaction((tx) => restoreSuppression(tx, { userId: input.userId, suppressionId: id }));
  if (restored === null) throw new AccountError("not_found", NOT_FOUND);
  return restored;
}
