// The person's pages in the screen gallery (/dev/screens/<name>): each state by its name, drawn by
// components/account/pages from the fixtures in lib/account/gallery.ts, handed the gallery's actions,
// which change nothing. A new state is one entry here (and its name in e2e/screens.spec.ts).
import type { ReactElement } from "react";
import { GALLERY_ACCESS_LOG, GALLERY_APPROVED_AGENTS, GALLERY_APPS, GALLERY_MEMORY_LIST, GALLERY_PERSON, GALLERY_PROFILE } from "@/lib/account/gallery";
import { AccountPage } from "./pages/account";
import { AccountDeletedPage } from "./pages/deleted";
import { DeleteAccountPage } from "./pages/delete";
import { MemoriesPage } from "./pages/memories";
import { SignedOutPage } from "./pages/signed-out";
import { UnavailablePreview } from "@/components/unavailable";
import type { AccountActions } from "./pages/actions";

const account = { user: GALLERY_PERSON, notices: {}, profile: GALLERY_PROFILE, agents: GALLERY_APPROVED_AGENTS, apps: GALLERY_APPS, log: GALLERY_ACCESS_LOG };

export const ACCOUNT_GALLERY: Readonly<Record<string, (actions: AccountActions) => ReactElement>> = {
  account: (actions) => <AccountPage data={account} actions={actions} />,
  "account-new": (actions) => (
    <AccountPage
      data={{
        ...account,
        user: { phoneLast4: "0100", email: null, emailVerified: false },
        notices: { revoked: "1" },
        profile: { identity: { facts: [] }, preferences: [], summary: "" },
        agents: [],
        apps: GALLERY_APPS.map((a) => (a.held ? { ...a, state: "connect", accountEmail: null, held: false, facts: [] } : a)),
        log: { entries: [], older: null, newer: null, newest: true },
      }}
      actions={actions}
    />
  ),
  "account-passkeys": (actions) => (
    <AccountPage
      data={{
        ...account,
        notices: { passkey: "renamed" },
        passkeys: [
          { id: "00000000-0000-4000-8000-000000000001", name: "Pixel 9", createdAt: new Date("2026-03-02T10:00:00Z"), lastUsedAt: new Date("2026-05-20T08:30:00Z") },
          { id: "00000000-0000-4000-8000-000000000002", name: "Work laptop", createdAt: new Date("2026-05-01T16:00:00Z"), lastUsedAt: null },
        ],
      }}
      actions={actions}
    />
  ),
  "account-memories": (actions) => <MemoriesPage data={GALLERY_MEMORY_LIST} actions={actions} />,
  "account-delete": (actions) => <DeleteAccountPage data={{ invalid: false }} actions={actions} />,
  "account-deleted": () => <AccountDeletedPage />,
  "account-signed-out": () => <SignedOutPage page="account" />,
  // What any hosted or site page shows when it could not be drawn (app/(hosted)/error.tsx, app/(site)/error.tsx).
  "page-unavailable": () => <UnavailablePreview />,
};
