// What a flow screen shows, decided here rather than in the page: each screen's view of the flow, as
// plain data. The page opens the flow and asks flowScreenView(); components/flow/flow-screen.tsx lays
// the view out. The rules a view shows (what meets a screen, what is offered) are the same functions
// the steps enforce. The development screen gallery (lib/flow/gallery.ts) builds these views from
// fixtures, so every screen can be seen without a database.
import { getCountries, getCountryCallingCode } from "libphonenumber-js";
import { agentDisplayName, developerDisplayName } from "../agents/agents";
import { RESEND_AFTER_SECONDS, takesSandboxCode } from "../auth/phone-codes";
import { configuredThirdParty, isThirdPartyProvider, THIRD_PARTY_NAMES, type ThirdPartyProvider } from "../auth/third-party";
import { APP_NAMES, APPS, ASSISTANT_NAMES, EXPORT_ASSISTANTS, IMPORT_SCREEN_APPS, isApp, MAILBOX_APPS, type App, type Assistant, type MailboxApp } from "../catalogue";
import { appState, connectsInDevelopment, type AppState } from "../connectors/connections";
import { appFactsOf, APP_READS } from "../connectors/memories/facts";
import { appList, capabilityPhrase, readCapability } from "../connectors/grants";
import { db } from "../db";
import { SANDBOX_VERIFICATION_CODE } from "../sandbox/seed";
import { memoryPrompt } from "./bring-in";
import { isMailboxOnly, requiredMet } from "./required";
import { screenSequence, type Screen } from "./sequence";
import { connectsApps, flowApp, offeredAssistants, offersSignIn, sequenceOf, type FlowSession, type OpenedFlow } from "./sessions";
import { connectedApps, continueState, metNames, verifiedOnceFinished, type ConnectedApp } from "./steps";

/** The service's own name, shown where the service itself (not an app) is the one signing in. */
export const SERVICE_NAME = "Profile Service";

/** The frame around a screen: whose sign-in it is, where the person is in the steps, where Cancel posts. */
export interface ShellView {
  appName: string;
  /** The developer account behind the agent ("by Acme"): agents' names are the developers' to choose, and not unique. */
  developerName: string | null;
  /** The service's own page (its sign-up): its mark, never an app's name. */
  own: boolean;
  /** The flow signs no one in (a partner link's import-only flow): the header says so. */
  noSignIn: boolean;
  steps: Screen[];
  current: Screen;
  cancelAction?: string;
}

/** On every screen of a connect link that binds the developer's own id: which profile gets linked. */
export interface LinkNoticeView {
  appName: string;
  phoneLast4: string | null;
}

/** An app's row: where it links, its state, the line under its name, and whether it is marked Required. */
export interface AppRowView {
  app: App;
  href: string;
  state: AppState;
  detail: string;
  required: boolean;
}

export type AssistantBadge = { kind: "imported"; count: number } | { kind: "preview" } | { kind: "required" } | { kind: "done" } | null;

export type AssistantPanel =
  | { kind: "preview"; count: number; shown: Array<{ text: string; date: string | null }>; more: number }
  | { kind: "prompt"; prompt: string; acceptsFile: boolean; replaces: number | null };

export interface AssistantRowView {
  assistant: Assistant;
  name: string;
  /** Opens (or, when open, closes) the assistant's card. */
  href: string;
  open: boolean;
  badge: AssistantBadge;
  panel: AssistantPanel | null;
}

export interface ImportView {
  screen: "import";
  shell: ShellView;
  linkNotice: LinkNoticeView | null;
  connectError: string | null;
  signedIn: boolean;
  /** "Sign in" under Continue (phone and code first): not in a flow that asks for no number. */
  signInOffered: boolean;
  assistants: AssistantRowView[];
  apps: AppRowView[];
  /** Some required entry is met by any one of several names. */
  alternatives: boolean;
  continueEnabled: boolean;
  hint: string;
}

export interface PhoneView {
  screen: "phone";
  shell: ShellView;
  signInFirst: boolean;
  linkNotice: LinkNoticeView | null;
  countries: Array<{ code: string; name: string; dial: string }>;
  defaultCountry: string;
}

export interface CodeView {
  screen: "code";
  shell: ShellView;
  phoneLast4: string;
  /** The sandbox number's fixed code, said on the page; null for every real number. */
  sandboxCode: string | null;
  linkNotice: LinkNoticeView | null;
  resendAfterSeconds: number;
}

export interface MailboxView {
  screen: "mailbox";
  shell: ShellView;
  /** After the code the mailbox is offered, not required (the person may skip it); first in the flow the app requires it. */
  offered: boolean;
  /** The mailboxes listed: every one when offered; otherwise those the required entries name. */
  rows: AppRowView[];
  connectError: string | null;
  /** The provider that did not confirm an address, after a failed sign-in proof. */
  verifyError: string | null;
  /**
   * First in the flow: a listed mailbox is connected. After the code: the address will be proven once
   * the flow finishes (email_verified's one decision, lib/auth/email-proof.ts), by a mailbox connected here.
   */
  connectedMailbox: boolean;
  /** Continue is on: always when offered; first in the flow, once every mailbox entry is met (continueFromMailbox's rule). */
  continueEnabled: boolean;
  continueLabel: "Not now" | "Continue";
  hint: string;
  /** The other proofs of the address, offered after the code while no mailbox proves it. */
  emailCode: { pendingEmail: string | null } | null;
  thirdParty: Array<{ provider: ThirdPartyProvider; name: string }>;
}

export interface AppsView {
  screen: "app" | "apps";
  shell: ShellView;
  /** The app the connect link names (screen "app"); null on the list of every app. */
  app: App | null;
  purpose: string | null;
  linkNotice: LinkNoticeView | null;
  connectError: string | null;
  rows: AppRowView[];
  met: boolean;
}

export interface CapabilityView {
  screen: "capability";
  shell: ShellView;
  capability: string;
  /** What allowing it lets the agent do, after "wants to" ("search your Gmail"). */
  phrase: string;
  appLabel: string;
  permission: string;
  purpose: string | null;
  /** Why the provider's consent the capability needed did not go through, when it did not. */
  connectError: string | null;
}

export interface ReceiptView {
  screen: "receipt";
  shell: ShellView;
  saved: Array<{ name: string; count: number }>;
  connected: string[];
  /** The connected apps read for memories (named as in `connected`): what is read, and the facts learned so far. */
  fromApps: Array<{ name: string; reads: string; facts: string[] }>;
  /** An agent was approved (every way in but the service's own sign-up). */
  approved: boolean;
  /** The apps the approved agent may use for the person now (those given it, in this flow or before), by name. */
  agentApps: string[];
  /** Where the way back posts; null when there is no page to go back to (a text-back link, a sign-in link without return_to). */
  returnAction: string | null;
  /** A text-back link: the conversation picks up in the messages. */
  backToMessages: boolean;
  /** A partner link's import-only flow: saved for the app under its own id for the person, with no sign-in. */
  importOnly: boolean;
}

/** A flow this browser cannot go on with: not a flow, another browser's, finished, or expired. */
export interface EndedView {
  screen: "ended";
  kind: "unknown" | "foreign" | "ended" | "expired";
  appName: string;
  own: boolean;
  home: string;
}

export type FlowScreenView = ImportView | PhoneView | CodeView | MailboxView | AppsView | CapabilityView | ReceiptView | EndedView;

/** What the flow page's address carries besides the flow: the open card and the outcome of a connection or proof. */
export interface FlowPageQuery {
  card?: string;
  connectError?: string;
  verifyError?: string;
  verifyWith?: string;
  acceptLanguage?: string;
}

export async function flowScreenView(opened: OpenedFlow, query: FlowPageQuery = {}): Promise<FlowScreenView> {
  if (!opened.flow) return { screen: "ended", kind: "unknown", appName: "Sign in", own: false, home: "/" };
  const flow = opened.flow;
  const own = flow.wayIn === "profile_signup";
  const appName = own ? SERVICE_NAME : (flow.signInLink?.display_name ?? (flow.agentId ? await agentDisplayName(flow.agentId) : null) ?? flow.request?.client_document?.display_name ?? "The app");
  const developerName = own || !flow.developerId ? null : await developerDisplayName(flow.developerId);
  if (opened.state !== "open") return { screen: "ended", kind: opened.state, appName, own, home: flow.request ? new URL(flow.request.redirect_uri).origin : "/" };

  const shell: ShellView = {
    appName,
    developerName,
    own,
    noSignIn: !offersSignIn(flow),
    steps: screenSequence(sequenceOf(flow)),
    current: flow.screen,
    cancelAction: `/flow/${flow.id}/cancel`,
  };
  const linkNotice = flow.connect?.binds_external_id || flow.partner?.binds_external_id ? { appName, phoneLast4: null } : null;
  const connectError = query.connectError ?? null;
  switch (flow.screen) {
    case "phone":
      return { screen: "phone", shell, signInFirst: flow.signInFirst, linkNotice, countries: phoneCountries(), defaultCountry: countryOf(query.acceptLanguage) };
    case "code":
      return {
        screen: "code",
        shell,
        phoneLast4: flow.phoneLast4 ?? "",
        sandboxCode: flow.phoneHash && takesSandboxCode({ plane: flow.plane, phoneHash: flow.phoneHash }) ? SANDBOX_VERIFICATION_CODE : null,
        linkNotice: linkNotice && { ...linkNotice, phoneLast4: flow.phoneLast4 },
        resendAfterSeconds: RESEND_AFTER_SECONDS,
      };
    case "receipt":
      return receiptView(flow, shell);
    case "mailbox":
      return mailboxView(flow, shell, query);
    case "app":
    case "apps": {
      const name = flow.connect?.client_name ?? appName;
      return appsView(flow, { ...shell, appName: name }, linkNotice && { ...linkNotice, appName: name }, connectError);
    }
    case "capability": {
      const capability = flow.connect?.capability ?? ":";
      const [app = "", permission = ""] = capability.split(":");
      return {
        screen: "capability",
        shell: { ...shell, appName: flow.connect?.client_name ?? appName },
        capability,
        phrase: capabilityPhrase(capability),
        appLabel: isApp(app) ? APP_NAMES[app] : app,
        permission: permission.replace(/_/g, " "),
        purpose: flow.connect?.purpose ?? null,
        connectError,
      };
    }
    case "import":
      return importView(flow, shell, linkNotice, connectError, query.card);
  }
}

/** An app's row as the flow shows it. */
export function appRow(flow: Pick<FlowSession, "id">, app: App, connection: { accountEmail: string | null; status: string } | undefined, required: boolean): AppRowView {
  const state = appState(app, connection);
  const detail =
    state === "connected"
      ? connection?.accountEmail || "Connected"
      : state === "reconnect"
        ? "Needs reconnecting"
        : state === "connect"
          ? connectsInDevelopment(app)
            ? "Connect (development)"
            : "Connect"
          : "Not set up on this service";
  return { app, href: `/flow/${flow.id}/connect/${app}`, state, detail, required };
}

async function importView(flow: FlowSession, shell: ShellView, linkNotice: LinkNoticeView | null, connectError: string | null, card?: string): Promise<ImportView> {
  const connections = await connectedApps(flow);
  const state = await continueState(flow, connections);
  const required = new Set(flow.required.flat());
  const unmet = new Set(state.required.filter((r) => !r.met).flatMap((r) => r.names));
  const byRequired = <T extends string>(list: readonly T[]) => [...list].sort((a, b) => Number(unmet.has(b)) - Number(unmet.has(a)));
  const offered = offeredAssistants(flow);
  const selected = offered.find((a) => a === card);
  const assistants = byRequired(offered).map((assistant): AssistantRowView => {
    const item = flow.broughtIn.find((b) => b.provider === assistant);
    const open = selected === assistant;
    const badge: AssistantBadge = item?.confirmed
      ? { kind: "imported", count: item.memories.length }
      : item
        ? { kind: "preview" }
        : unmet.has(assistant)
          ? { kind: "required" }
          : required.has(assistant)
            ? { kind: "done" }
            : null;
    return {
      assistant,
      name: ASSISTANT_NAMES[assistant],
      href: open ? `/flow/${flow.id}` : `/flow/${flow.id}?card=${assistant}#panel`,
      open,
      badge,
      panel: open ? assistantPanel(assistant, item) : null,
    };
  });
  return {
    screen: "import",
    shell,
    linkNotice,
    connectError,
    signedIn: !!flow.userId,
    signInOffered: !flow.userId && offersSignIn(flow),
    assistants,
    apps: byRequired(offeredApps(flow)).map((app) => appRow(flow, app, connections.find((c) => c.app === app), unmet.has(app))),
    alternatives: state.required.some((r) => !r.met && r.names.length > 1),
    continueEnabled: state.enabled,
    hint: state.enabled
      ? approvalHint(shell.appName, await agentAppsAfter(flow, connections))
      : unmet.size
        ? "Import or connect what is marked Required to continue."
        : connectsApps(flow)
          ? "Import from one assistant or connect one app to continue."
          : "Import from one assistant to continue.",
  };
}

/**
 * The apps the flow's agent may use once this flow finishes: those the person gave it before (signed
 * in), and those connected in this flow, by name.
 */
async function agentAppsAfter(flow: FlowSession, connections: ConnectedApp[]): Promise<string[]> {
  const here = connections.filter((c) => c.flowId === flow.id && c.status === "active").map((c) => c.app);
  return appNames([...(await grantedApps(flow)), ...here]);
}

/** The apps the person gave the flow's agent, as stored. */
async function grantedApps(flow: Pick<FlowSession, "userId" | "agentId">): Promise<string[]> {
  if (!flow.userId || !flow.agentId) return [];
  const rows = await (await db()).capabilityGrant.findMany({ where: { userId: flow.userId, agentId: flow.agentId }, select: { capability: true } });
  return APPS.filter((app) => rows.some((r) => r.capability === readCapability(app)));
}

function appNames(apps: readonly string[]): string[] {
  return APPS.filter((a) => apps.includes(a)).map((a) => APP_NAMES[a]);
}

/** What Continue on the import screen approves: the profile, and exactly the apps the agent may use. */
export function approvalHint(appName: string, apps: readonly string[]): string {
  return apps.length
    ? `${appName} will be able to read and add to your profile, and use ${appList(apps)}. It cannot use your other apps.`
    : `${appName} will be able to read and add to your profile. It cannot use any of your apps.`;
}

/**
 * The apps the import screen offers: a sign-in link naming two or more connectors offers those (its
 * "sign-in offering them"); every other way in, the import screen's default apps.
 */
export function offeredApps(flow: Pick<FlowSession, "signInLink" | "partner">): readonly App[] {
  if (!connectsApps(flow)) return [];
  const named = (flow.signInLink?.connectors ?? []).filter(isApp);
  return named.length >= 2 ? named : IMPORT_SCREEN_APPS;
}

/** The most memories a preview lists; the rest are counted. */
export const PREVIEW_SHOWN = 25;

function assistantPanel(assistant: Assistant, item: FlowSession["broughtIn"][number] | undefined): AssistantPanel {
  if (item && !item.confirmed) {
    const shown = item.memories.slice(0, PREVIEW_SHOWN).map((m) => ({
      text: m.text,
      date: m.at ? new Date(m.at).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }) : null,
    }));
    return { kind: "preview", count: item.memories.length, shown, more: item.memories.length - shown.length };
  }
  return { kind: "prompt", prompt: memoryPrompt(assistant), acceptsFile: EXPORT_ASSISTANTS.includes(assistant), replaces: item?.confirmed ? item.memories.length : null };
}

export async function mailboxView(flow: FlowSession, shell: ShellView, query: Pick<FlowPageQuery, "connectError" | "verifyError" | "verifyWith"> = {}): Promise<MailboxView> {
  const connections = await connectedApps(flow);
  const offered = !!flow.userId;
  const mailboxEntries = flow.required.filter(isMailboxOnly);
  const mailboxes: MailboxApp[] = offered ? [...MAILBOX_APPS] : MAILBOX_APPS.filter((m) => mailboxEntries.some((entry) => entry.includes(m)));
  const connectedMailbox = flow.userId
    ? await verifiedOnceFinished(flow, flow.userId)
    : mailboxes.some((m) => connections.some((c) => c.app === m && c.status === "active"));
  const continueEnabled = offered || requiredMet(mailboxEntries, await metNames(flow, connections));
  const proofsOffered = offered && !connectedMailbox;
  return {
    screen: "mailbox",
    shell,
    offered,
    rows: mailboxes.map((m) => appRow(flow, m, connections.find((c: ConnectedApp) => c.app === m), !continueEnabled)),
    connectError: query.connectError ?? null,
    verifyError: query.verifyError ? (isThirdPartyProvider(query.verifyWith) ? THIRD_PARTY_NAMES[query.verifyWith] : "The provider") : null,
    connectedMailbox,
    continueEnabled,
    continueLabel: proofsOffered ? "Not now" : "Continue",
    hint: connectedMailbox
      ? offered
        ? "Your mailbox proves your email address."
        : "Your mailbox is connected."
      : offered
        ? "Your email address stays unverified until a mailbox, a code or a sign-in proves it."
        : mailboxes.length > 1
          ? "Connect one of them to continue: one is enough."
          : "Connect it to continue.",
    emailCode: proofsOffered ? { pendingEmail: flow.pendingEmail } : null,
    thirdParty: proofsOffered ? configuredThirdParty().map((provider) => ({ provider, name: THIRD_PARTY_NAMES[provider] })) : [],
  };
}

async function appsView(flow: FlowSession, shell: ShellView, linkNotice: LinkNoticeView | null, connectError: string | null): Promise<AppsView> {
  const connections = await connectedApps(flow);
  const one = flowApp(flow);
  const named = flow.screen === "app" && one && isApp(one) ? one : null;
  // The list of every app is the import screen's: Sheets appears only where a link names it.
  const apps: App[] = named ? [named] : [...IMPORT_SCREEN_APPS];
  const met = flow.screen === "apps" || connections.some((c) => c.app === apps[0] && c.status === "active");
  return {
    screen: flow.screen === "app" ? "app" : "apps",
    shell,
    app: named,
    purpose: flow.connect?.purpose ?? null,
    linkNotice,
    connectError,
    rows: apps.map((a) => appRow(flow, a, connections.find((c) => c.app === a), flow.screen === "app" && !met)),
    met,
  };
}

async function receiptView(flow: FlowSession, shell: ShellView): Promise<ReceiptView> {
  // The apps are read in the background once the flow finishes: the facts appear as they are learned.
  const learned = flow.userId ? await appFactsOf(flow.userId, (flow.receipt?.connected ?? []).filter(isApp)) : [];
  return {
    screen: "receipt",
    shell: { ...shell, cancelAction: undefined },
    saved: (flow.receipt?.saved ?? []).filter((s) => s.count > 0).map((s) => ({ name: ASSISTANT_NAMES[s.provider as Assistant] ?? s.provider, count: s.count })),
    connected: (flow.receipt?.connected ?? []).map((a) => (isApp(a) ? APP_NAMES[a] : a)),
    fromApps: learned.map((l) => ({ name: APP_NAMES[l.app], reads: APP_READS[l.app] ?? "", facts: l.facts.map((f) => f.text) })),
    approved: !!flow.agentId,
    agentApps: appNames(await grantedApps(flow)),
    // A partner link has no way back: the person returns to the partner's app themselves.
    returnAction: flow.partner || (flow.signInLink && (flow.signInLink.message || !flow.signInLink.return_to)) ? null : `/flow/${flow.id}/return`,
    backToMessages: !!flow.signInLink?.message,
    importOnly: !offersSignIn(flow),
  };
}

/** Every country a number can be entered for, by name, with its calling code. */
export function phoneCountries(): Array<{ code: string; name: string; dial: string }> {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, dial: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The country of the browser's first language with a region (en-GB → GB), else the United States. */
export function countryOf(acceptLanguage = ""): string {
  const region = acceptLanguage.match(/[a-z]{2,3}-([A-Z]{2})\b/)?.[1];
  return region && (getCountries() as string[]).includes(region) ? region : "US";
}
