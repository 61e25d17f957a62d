// What a flow screen shows, decided here rather than in the page: each screen's view of the flow, as
// plain data (lib/flow/view-types.ts). The page opens the flow and asks flowScreenView();
// components/flow/flow-screen.tsx lays the view out. The rules a view shows (what meets a screen, what
// is offered) are the same functions the steps enforce, and what differs by way in is its traits
// (lib/flow/ways-in/). Rendering a view only reads. The development screen gallery
// (lib/flow/gallery.ts) builds these views from fixtures, so every screen can be seen without a database.
import { getCountries, getCountryCallingCode } from "libphonenumber-js";
import { agentDisplayName, developerDisplayName } from "../agents/agents";
import { RESEND_AFTER_SECONDS, takesSandboxCode } from "../person-auth/phone-codes";
import { configuredThirdParty, isThirdPartyProvider, THIRD_PARTY_NAMES } from "../person-auth/third-party";
import { APP_NAMES, APPS, ASSISTANT_NAMES, EXPORT_ASSISTANTS, IMPORT_SCREEN_APPS, isApp, MAILBOX_APPS, type App, type Assistant, type MailboxApp } from "../catalogue";
import { appState, appConnectsInDevelopment } from "../connectors/providers";
import { appFactsOf, APP_READS } from "../connectors/memories/facts";
import { appList, capabilityPhrase, readCapability } from "../app-grants/grants";
import { db } from "../platform/db";
import { isMailboxOnly, requiredMet } from "../required/entries";
import { SANDBOX_VERIFICATION_CODE } from "../sandbox/seed";
import { smsOutboxPath } from "../sms";
import { memoryPrompt } from "./bring-in";
import { addressProvenOnceFinished } from "./email-once-finished";
import type { OpenedFlow } from "./open";
import { connectedApps, continueState, metNames, type ConnectedApp } from "./queries";
import { screensOf, traitsOf } from "./sequence";
import type { Flow } from "./store";
import type {
  AppRowView,
  AppsView,
  AssistantBadge,
  AssistantPanel,
  AssistantRowView,
  FlowPageQuery,
  FlowScreenView,
  ImportView,
  LinkNoticeView,
  MailboxView,
  ReceiptView,
  ShellView,
} from "./view-types";

export type * from "./view-types";

/** The service's own name, shown where the service itself (not an app) is the one signing in. */
export const SERVICE_NAME = "Profile Service";

export async function flowScreenView(opened: OpenedFlow, query: FlowPageQuery = {}): Promise<FlowScreenView> {
  if (!opened.flow) return { screen: "ended", kind: "unknown", appName: "Sign in", own: false, home: "/" };
  const flow = opened.flow;
  const traits = traitsOf(flow);
  const own = traits.own;
  const appName = own ? SERVICE_NAME : (traits.displayName ?? (flow.agentId ? await agentDisplayName(flow.agentId) : null) ?? traits.nameWithoutAgent ?? "The app");
  const developerName = own || !flow.developerId ? null : await developerDisplayName(flow.developerId);
  if (opened.state !== "open") return { screen: "ended", kind: opened.state, appName, own, home: traits.home };

  const shell: ShellView = {
    appName,
    developerName,
    own,
    noSignIn: !traits.signsIn,
    steps: screensOf(flow),
    current: flow.screen,
    cancelAction: `/flow/${flow.id}/cancel`,
  };
  const linkNotice = traits.bindsExternalId ? { appName, phoneLast4: null } : null;
  const connectError = query.connectError ?? null;
  switch (flow.screen) {
    case "phone":
      return {
        screen: "phone",
        shell,
        signInFirst: flow.signInFirst,
        linkNotice,
        countries: phoneCountries(),
        defaultCountry: countryOf(query.acceptLanguage),
        // A flow that signs nobody in takes the number only.
        passkeyOptions: traits.signsIn ? `/flow/${flow.id}/passkey/options` : null,
        passkeyAutofill: traits.signsIn,
      };
    case "code":
      return {
        screen: "code",
        shell,
        phoneLast4: flow.phoneLast4 ?? "",
        sandboxCode: flow.phoneHash && takesSandboxCode({ plane: flow.plane, phoneHash: flow.phoneHash }) ? SANDBOX_VERIFICATION_CODE : null,
        outbox: smsOutboxPath(),
        linkNotice: linkNotice && { ...linkNotice, phoneLast4: flow.phoneLast4 },
        resendAfterSeconds: RESEND_AFTER_SECONDS,
      };
    case "receipt":
      return receiptView(flow, shell, query.passkeyDevice ?? null);
    case "mailbox":
      return mailboxView(flow, shell, query);
    case "app":
    case "apps": {
      const name = traits.clientName ?? appName;
      return appsView(flow, { ...shell, appName: name }, linkNotice && { ...linkNotice, appName: name }, connectError);
    }
    case "capability": {
      const capability = traits.capability ?? ":";
      const [app = "", permission = ""] = capability.split(":");
      return {
        screen: "capability",
        shell: { ...shell, appName: traits.clientName ?? appName },
        capability,
        phrase: capabilityPhrase(capability),
        appLabel: isApp(app) ? APP_NAMES[app] : app,
        permission: permission.replace(/_/g, " "),
        purpose: traits.purpose,
        connectError,
      };
    }
    case "import":
      return importView(flow, shell, linkNotice, connectError, query.card);
  }
}

/** An app's row as the flow shows it. */
export function appRow(flow: Pick<Flow, "id">, app: App, connection: { accountEmail: string | null; status: string } | undefined, required: boolean): AppRowView {
  const state = appState(app, connection);
  const detail =
    state === "connected"
      ? connection?.accountEmail || "Connected"
      : state === "reconnect"
        ? "Needs reconnecting"
        : state === "connect"
          ? appConnectsInDevelopment(app)
            ? "Connect (development)"
            : "Connect"
          : "Not set up on this service";
  return { app, href: `/flow/${flow.id}/connect/${app}`, state, detail, required };
}

async function importView(flow: Flow, shell: ShellView, linkNotice: LinkNoticeView | null, connectError: string | null, card?: string): Promise<ImportView> {
  const connections = await connectedApps(flow);
  const state = await continueState(flow, connections);
  const required = new Set(flow.required.flat());
  const unmet = new Set(state.required.filter((r) => !r.met).flatMap((r) => r.names));
  const byRequired = <T extends string>(list: readonly T[]) => [...list].sort((a, b) => Number(unmet.has(b)) - Number(unmet.has(a)));
  const traits = traitsOf(flow);
  const offered = traits.assistants;
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
    signInOffered: !flow.userId && traits.signsIn,
    assistants,
    apps: byRequired(traits.apps).map((app) =>
      appRow(
        flow,
        app,
        connections.find((c) => c.app === app),
        unmet.has(app),
      ),
    ),
    alternatives: state.required.some((r) => !r.met && r.names.length > 1),
    continueEnabled: state.enabled,
    hint: state.enabled
      ? approvalHint(shell.appName, await agentAppsAfter(flow, connections))
      : unmet.size
        ? "Import or connect what is marked Required to continue."
        : traits.apps.length
          ? "Import from one assistant or connect one app to continue."
          : "Import from one assistant to continue.",
  };
}

/**
 * The apps the flow's agent may use once this flow finishes: those the person gave it before (signed
 * in), and those connected in this flow, by name.
 */
async function agentAppsAfter(flow: Flow, connections: ConnectedApp[]): Promise<string[]> {
  const here = connections.filter((c) => c.flowId === flow.id && c.status === "active").map((c) => c.app);
  return appNames([...(await grantedApps(flow)), ...here]);
}

/** The apps the person gave the flow's agent, as stored. */
async function grantedApps(flow: Pick<Flow, "userId" | "agentId">): Promise<string[]> {
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

/** The most memories a preview lists; the rest are counted. */
export const PREVIEW_SHOWN = 25;

function assistantPanel(assistant: Assistant, item: Flow["broughtIn"][number] | undefined): AssistantPanel {
  if (item && !item.confirmed) {
    const shown = item.memories.slice(0, PREVIEW_SHOWN).map((m) => ({
      text: m.text,
      date: m.at ? new Date(m.at).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }) : null,
    }));
    return { kind: "preview", count: item.memories.length, shown, more: item.memories.length - shown.length };
  }
  return { kind: "prompt", prompt: memoryPrompt(assistant), acceptsFile: EXPORT_ASSISTANTS.includes(assistant), replaces: item?.confirmed ? item.memories.length : null };
}

export async function mailboxView(flow: Flow, shell: ShellView, query: Pick<FlowPageQuery, "connectError" | "verifyError" | "verifyWith"> = {}): Promise<MailboxView> {
  const connections = await connectedApps(flow);
  const offered = !!flow.userId;
  const mailboxEntries = flow.required.filter(isMailboxOnly);
  const mailboxes: MailboxApp[] = offered ? [...MAILBOX_APPS] : MAILBOX_APPS.filter((m) => mailboxEntries.some((entry) => entry.includes(m)));
  const connectedMailbox = flow.userId ? await addressProvenOnceFinished(flow, flow.userId) : mailboxes.some((m) => connections.some((c) => c.app === m && c.status === "active"));
  const continueEnabled = offered || requiredMet(mailboxEntries, await metNames(flow, connections));
  const proofsOffered = offered && !connectedMailbox;
  return {
    screen: "mailbox",
    shell,
    offered,
    rows: mailboxes.map((m) =>
      appRow(
        flow,
        m,
        connections.find((c: ConnectedApp) => c.app === m),
        !continueEnabled,
      ),
    ),
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

async function appsView(flow: Flow, shell: ShellView, linkNotice: LinkNoticeView | null, connectError: string | null): Promise<AppsView> {
  const connections = await connectedApps(flow);
  const one = traitsOf(flow).app;
  const named = flow.screen === "app" && one && isApp(one) ? one : null;
  // The list of every app is the import screen's: Sheets appears only where a link names it.
  const apps: App[] = named ? [named] : [...IMPORT_SCREEN_APPS];
  const met = flow.screen === "apps" || connections.some((c) => c.app === apps[0] && c.status === "active");
  return {
    screen: flow.screen === "app" ? "app" : "apps",
    shell,
    app: named,
    purpose: traitsOf(flow).purpose,
    linkNotice,
    connectError,
    rows: apps.map((a) =>
      appRow(
        flow,
        a,
        connections.find((c) => c.app === a),
        flow.screen === "app" && !met,
      ),
    ),
    met,
  };
}

async function receiptView(flow: Flow, shell: ShellView, passkeyDevice: FlowPageQuery["passkeyDevice"]): Promise<ReceiptView> {
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
    returnAction: traitsOf(flow).returns ? `/flow/${flow.id}/return` : null,
    backToMessages: traitsOf(flow).backToMessages,
    importOnly: !traitsOf(flow).signsIn,
    // Offered to a person signed in here, until this browser has a passkey or said "Not now".
    passkeyOffer: traitsOf(flow).signsIn && flow.userId && !passkeyDevice ? "/account/passkeys/options" : null,
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
