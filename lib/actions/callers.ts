// Who may call a server action, as its contract names it (`auth`). Each kind reads its own credential
// from the request and nothing else, and says what a caller without it gets — what the pages behind
// that credential show a stranger.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { auth } from "../person-auth/session";
import { DASHBOARD_SIGN_IN_PATH } from "../dashboard/context";
import { DASHBOARD_MESSAGES } from "../developer-auth/errors";
import { currentDashboardUser } from "../developer-auth/session";
import { flowCookie } from "../flow/browser";
import { openFlowFor } from "../flow/open";
import type { Flow } from "../flow/store";
import { readCookie } from "../http/cookies";
import type { ActionState } from "./state";

/** What the handler learns of its caller, by kind. */
export interface Callers {
  /** Anyone: the dashboard's sign-in, signing out, the screen gallery. */
  none: Record<never, never>;
  /** The browser that started the flow the action's first argument names (its flow cookie), whatever the flow's state. */
  flow: { flow: Flow };
  /** The signed-in person (their session cookie, of the current session version). */
  person: { userId: string };
  /** A signed-in dashboard user (their dashboard session cookie); lib checks their membership of every account a form names. */
  "dashboard-member": { actor: { id: string; email: string } };
}

export type AuthKind = keyof Callers;

interface CallerKind<C> {
  /** The caller this request carries, or null. `flowId` is the action's first argument for kind "flow". */
  resolve(flowId: string): Promise<C | null>;
  /** The answer to a request without the credential: a redirect, or the form's state. */
  refuse(at: { flowId: string; stateful: boolean }): ActionState;
  /** Run after a change the form shows in its state (not a redirect): the pages that show it are refreshed. */
  changed?(): void;
}

export const CALLERS: { readonly [K in AuthKind]: CallerKind<Callers[K]> } = {
  none: {
    resolve: async () => ({}),
    refuse: () => null,
  },
  flow: {
    resolve: async (flowId) => {
      const opened = await openFlowFor(flowId, await readCookie(flowCookie(flowId)));
      return opened.state === "unknown" || opened.state === "foreign" ? null : { flow: opened.flow };
    },
    // The flow page tells this browser the flow is not theirs (or not there).
    refuse: ({ flowId }) => redirect(`/flow/${flowId}`),
  },
  person: {
    resolve: async () => {
      const userId = (await auth())?.user?.id;
      return userId ? { userId } : null;
    },
    // The account page asks them to sign in.
    refuse: () => redirect("/account"),
  },
  "dashboard-member": {
    resolve: async () => {
      const actor = await currentDashboardUser();
      return actor ? { actor } : null;
    },
    refuse: ({ stateful }) => (stateful ? { error: DASHBOARD_MESSAGES.signed_out } : redirect(DASHBOARD_SIGN_IN_PATH)),
    changed: () => revalidatePath("/dashboard", "layout"),
  },
};
