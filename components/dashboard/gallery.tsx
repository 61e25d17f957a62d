// The developer dashboard in the screen gallery (/dev/screens/<name>): each state by its name, one
// entry each, drawn by components/dashboard/pages from the fixtures in lib/dashboard/gallery*.ts and
// handed the gallery's actions, which change nothing. A new state is one entry here (and its name in
// e2e/screens.spec.ts).
import type { ReactElement } from "react";
import {
  GALLERY_AGENTS,
  GALLERY_CONTEXT as ctx,
  GALLERY_EMAIL,
  GALLERY_INVITE,
  GALLERY_KEYS,
  GALLERY_MEMBERS,
  GALLERY_ORIGINS,
  GALLERY_OVERVIEW,
  GALLERY_OVERVIEW_EMPTY,
  GALLERY_SSO_CLIENTS,
} from "@/lib/dashboard/gallery";
import { GALLERY_IMPORTS, GALLERY_REQUESTS, GALLERY_REQUESTS_EMPTY, GALLERY_REQUESTS_FOUND, GALLERY_SIGN_IN_LINKS, GALLERY_USAGE } from "@/lib/dashboard/gallery-activity";
import { GALLERY_WEBHOOKS, GALLERY_WEBHOOKS_EMPTY } from "@/lib/dashboard/gallery-webhooks";
import type { DashboardActions } from "./pages/actions";
import { AgentsPage } from "./pages/agents";
import { ImportsPage } from "./pages/imports";
import { InvitePage } from "./pages/invite";
import { KeysPage } from "./pages/keys";
import { MembersPage } from "./pages/members";
import { OriginsPage } from "./pages/origins";
import { OverviewPage } from "./pages/overview";
import { SignInPage } from "./pages/sign-in";
import { SignInCodePage } from "./pages/sign-in-code";
import { SignInLinkPage } from "./pages/sign-in-link";
import { SignInLinksPage } from "./pages/sign-in-links";
import { RequestsPage } from "./pages/requests";
import { SsoClientsPage } from "./pages/sso";
import { UsagePage } from "./pages/usage";
import { WebhooksPage } from "./pages/webhooks";
import { WelcomePage } from "./pages/welcome";

export const DASHBOARD_GALLERY: Readonly<Record<string, (actions: DashboardActions) => ReactElement>> = {
  "dashboard-overview": (actions) => <OverviewPage ctx={ctx} data={GALLERY_OVERVIEW} actions={actions} />,
  "dashboard-overview-new": (actions) => <OverviewPage ctx={ctx} data={GALLERY_OVERVIEW_EMPTY} actions={actions} />,
  "dashboard-keys": (actions) => <KeysPage ctx={ctx} data={GALLERY_KEYS} actions={actions} />,
  "dashboard-agents": (actions) => <AgentsPage ctx={ctx} data={GALLERY_AGENTS} actions={actions} />,
  "dashboard-origins": (actions) => <OriginsPage ctx={ctx} data={GALLERY_ORIGINS} actions={actions} />,
  "dashboard-sso": (actions) => <SsoClientsPage ctx={ctx} data={GALLERY_SSO_CLIENTS} actions={actions} />,
  "dashboard-sign-in-links": (actions) => <SignInLinksPage ctx={ctx} data={GALLERY_SIGN_IN_LINKS} actions={actions} />,
  "dashboard-imports": (actions) => <ImportsPage ctx={ctx} data={GALLERY_IMPORTS} actions={actions} live={false} />,
  "dashboard-webhooks": (actions) => <WebhooksPage ctx={ctx} data={GALLERY_WEBHOOKS} overlapHours={24} actions={actions} />,
  "dashboard-webhooks-empty": (actions) => <WebhooksPage ctx={ctx} data={GALLERY_WEBHOOKS_EMPTY} overlapHours={24} actions={actions} />,
  "dashboard-usage": (actions) => <UsagePage ctx={ctx} data={GALLERY_USAGE} actions={actions} />,
  "dashboard-requests": (actions) => <RequestsPage ctx={ctx} data={GALLERY_REQUESTS} retentionDays={30} actions={actions} />,
  "dashboard-requests-found": (actions) => <RequestsPage ctx={ctx} data={GALLERY_REQUESTS_FOUND} retentionDays={30} actions={actions} />,
  "dashboard-requests-empty": (actions) => <RequestsPage ctx={ctx} data={GALLERY_REQUESTS_EMPTY} retentionDays={30} actions={actions} />,
  "dashboard-members": (actions) => <MembersPage ctx={ctx} data={GALLERY_MEMBERS} actions={actions} />,
  "dashboard-sign-in": (actions) => <SignInPage data={{ providers: ["google", "github"], after: "/dashboard" }} actions={actions} />,
  "dashboard-sign-in-error": (actions) => <SignInPage data={{ providers: ["google", "github"], error: "unverified", after: "/dashboard" }} actions={actions} />,
  "dashboard-sign-in-code": (actions) => <SignInCodePage data={{ email: GALLERY_EMAIL, after: "/dashboard", outbox: null }} actions={actions} />,
  "dashboard-sign-in-code-outbox": (actions) => <SignInCodePage data={{ email: GALLERY_EMAIL, after: "/dashboard", outbox: "/dev/email-outbox" }} actions={actions} />,
  "dashboard-sign-in-link": (actions) => <SignInLinkPage data={{ email: GALLERY_EMAIL, code: "424242" }} actions={actions} />,
  "dashboard-welcome": (actions) => <WelcomePage data={{ email: GALLERY_EMAIL }} actions={actions} />,
  "dashboard-invite": (actions) => <InvitePage data={{ ...GALLERY_INVITE, user: { email: GALLERY_INVITE.invite.email } }} actions={actions} />,
  "dashboard-invite-signed-out": (actions) => <InvitePage data={{ ...GALLERY_INVITE, user: null }} actions={actions} />,
};
