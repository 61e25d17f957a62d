// The person's pages' server actions as the pages are handed them: each page.tsx passes the module
// app/(hosted)/account/actions.ts whole (`import * as actions`); the screen gallery passes its own, which change nothing.
import type { ActionState } from "@/lib/actions/state";

export interface AccountActions {
  disconnectAction: (app: string) => Promise<void>;
  removeAppFactAction: (memoryId: string) => Promise<void>;
  revokeAgentAction: (agentId: string) => Promise<void>;
  revokeAgentAppAction: (agentId: string, app: string) => Promise<void>;
  signOutAction: () => Promise<void>;
  signOutEverywhereAction: () => Promise<void>;
  editMemoryAction: (memoryId: string, filters: unknown, form: FormData) => Promise<void>;
  removeMemoryAction: (memoryId: string, filters: unknown) => Promise<void>;
  forgetMemoryAction: (memoryId: string, filters: unknown) => Promise<void>;
  restoreHiddenAction: (suppressionId: string, filters: unknown) => Promise<void>;
  deleteAccountAction: (form: FormData) => Promise<void>;
  /** The passkey forms (app/(hosted)/account/passkeys/actions.ts): only the account page takes them. */
  addPasskeyAction?: (state: ActionState, form: FormData) => Promise<ActionState>;
  renamePasskeyAction?: (passkeyId: string, form: FormData) => Promise<void>;
  removePasskeyAction?: (passkeyId: string) => Promise<void>;
}
