// The development screen gallery's fixtures: every flow screen in each of its states, as the views
// lib/flow/views.ts computes, written out by hand. No database and no flow: /dev/screens renders them
// with actions that change nothing, and e2e/screens.spec.ts compares each against its baseline image.
import { ASSISTANT_NAMES, ASSISTANTS, IMPORT_SCREEN_APPS, type App, type Assistant } from "../catalogue";
import { APP_READS } from "../connectors/memories/facts";
import { memoryPrompt } from "./bring-in";
import type { Screen } from "./screens";
import {
  approvalHint,
  phoneCountries,
  PREVIEW_SHOWN,
  SERVICE_NAME,
  type AppRowView,
  type AssistantBadge,
  type AssistantRowView,
  type FlowScreenView,
  type ShellView,
} from "./views";

const APP_NAME = "Acme Travel";
const DEVELOPER_NAME = "Acme Labs";
const GALLERY = "/dev/screens";
const IMPORT_FIRST: Screen[] = ["import", "phone", "code", "receipt"];

function shell(current: Screen, steps: Screen[] = IMPORT_FIRST, appName = APP_NAME): ShellView {
  return { appName, developerName: DEVELOPER_NAME, own: false, noSignIn: false, steps, current, cancelAction: GALLERY };
}

function row(app: App, state: AppRowView["state"] = "connect", required = false, detail?: string): AppRowView {
  const details = { connected: "ada@example.com", reconnect: "Needs reconnecting", connect: "Connect", unavailable: "Not set up on this service" };
  return { app, href: "#", state, detail: detail ?? details[state], required };
}

function apps(overrides: Partial<Record<App, AppRowView>> = {}): AppRowView[] {
  const rows = IMPORT_SCREEN_APPS.map((a) => overrides[a] ?? row(a, a === "outlook" ? "unavailable" : "connect"));
  return rows.sort((a, b) => Number(b.required) - Number(a.required));
}

const MEMORIES = [
  "Prefers window seats and flies out of Lisbon",
  "Vegetarian; avoids mushrooms",
  "Works as a structural engineer in Porto",
  "Has a daughter, Inês, who is seven",
  "Learning Japanese for a trip to Kyoto next spring",
  "Runs half-marathons; training for Porto in November",
  "Likes small, quiet hotels over big chains",
  "Reads mostly history and science fiction",
];

function assistants(open?: { assistant: Assistant; panel: AssistantRowView["panel"] }, badges: Partial<Record<Assistant, AssistantBadge>> = {}): AssistantRowView[] {
  return ASSISTANTS.map((assistant) => ({
    assistant,
    name: ASSISTANT_NAMES[assistant],
    href: open?.assistant === assistant ? `${GALLERY}/import` : `${GALLERY}/import-prompt`,
    open: open?.assistant === assistant,
    badge: badges[assistant] ?? null,
    panel: open?.assistant === assistant ? open.panel : null,
  }));
}

const importBase = {
  screen: "import",
  shell: shell("import"),
  linkNotice: null,
  connectError: null,
  signedIn: false,
  signInOffered: true,
  assistants: assistants(),
  apps: apps(),
  alternatives: false,
  continueEnabled: false,
  hint: "Import from one assistant or connect one app to continue.",
} as const satisfies FlowScreenView;

const previewCount = 31;
const countries = phoneCountries();

const phoneSignIn = {
  screen: "phone",
  shell: shell("phone", ["phone", "code", "import", "receipt"]),
  signInFirst: true,
  linkNotice: null,
  countries,
  defaultCountry: "PT",
  passkeyOptions: null,
  passkeyAutofill: false,
} as const satisfies FlowScreenView;

const mailboxBase = {
  screen: "mailbox",
  shell: shell("mailbox", ["mailbox", "import", "phone", "code", "receipt"]),
  offered: false,
  rows: [row("gmail", "connect", true)],
  connectError: null,
  verifyError: null,
  connectedMailbox: false,
  continueEnabled: false,
  continueLabel: "Continue",
  hint: "Connect it to continue.",
  emailCode: null,
  thirdParty: [],
} as const satisfies FlowScreenView;

const mailboxOffered = {
  ...mailboxBase,
  shell: shell("mailbox", ["import", "phone", "code", "mailbox", "receipt"]),
  offered: true,
  rows: [row("gmail"), row("outlook", "unavailable")],
  continueEnabled: true,
  continueLabel: "Not now",
  hint: "Your email address stays unverified until a mailbox, a code or a sign-in proves it.",
  emailCode: { pendingEmail: null },
  thirdParty: [
    { provider: "google", name: "Google" },
    { provider: "github", name: "GitHub" },
  ],
} as const satisfies FlowScreenView;

const receiptBase = {
  screen: "receipt",
  shell: { ...shell("receipt"), cancelAction: undefined },
  saved: [
    { name: "ChatGPT", count: 12 },
    { name: "Claude", count: 1 },
  ],
  connected: ["Gmail", "Google Calendar"],
  fromApps: [
    { name: "Gmail", reads: APP_READS.gmail!, facts: ["Is called Ada Lovelace", "Signs emails as Ada"] },
    { name: "Google Calendar", reads: APP_READS.calendar!, facts: [] },
  ],
  approved: true,
  agentApps: ["Gmail", "Google Calendar"],
  returnAction: GALLERY,
  backToMessages: false,
  importOnly: false,
  passkeyOffer: null,
} as const satisfies FlowScreenView;

/** Every state the gallery shows, by the name in its address (/dev/screens/<name>). */
export const GALLERY_STATES = {
  import: importBase,
  "import-required": {
    ...importBase,
    assistants: [...assistants(undefined, { claude: { kind: "required" }, chatgpt: { kind: "required" } })].sort((a, b) => Number(b.badge !== null) - Number(a.badge !== null)),
    apps: apps({ gmail: row("gmail", "connect", true) }),
    alternatives: true,
    hint: "Import or connect what is marked Required to continue.",
  },
  "import-prompt": {
    ...importBase,
    assistants: assistants({ assistant: "chatgpt", panel: { kind: "prompt", prompt: memoryPrompt("chatgpt"), acceptsFile: true, replaces: null } }),
  },
  "import-preview": {
    ...importBase,
    assistants: assistants(
      {
        assistant: "claude",
        panel: {
          kind: "preview",
          count: previewCount,
          shown: Array.from({ length: PREVIEW_SHOWN }, (_, i) => ({ text: MEMORIES[i % MEMORIES.length]!, date: i % 3 === 0 ? "Mar 4, 2026" : null })),
          more: previewCount - PREVIEW_SHOWN,
        },
      },
      { claude: { kind: "preview" } },
    ),
  },
  "import-ready": {
    ...importBase,
    assistants: assistants(undefined, { chatgpt: { kind: "imported", count: 12 } }),
    apps: apps({ gmail: row("gmail", "connected"), calendar: row("calendar", "reconnect") }),
    continueEnabled: true,
    hint: approvalHint(APP_NAME, ["Gmail"]),
  },
  "import-signed-in": {
    ...importBase,
    shell: shell("import", ["phone", "code", "import", "receipt"]),
    signedIn: true,
    signInOffered: false,
    continueEnabled: true,
    hint: approvalHint(APP_NAME, []),
  },
  "import-link": {
    ...importBase,
    shell: shell("import", ["import", "phone", "code", "receipt"]),
    linkNotice: { appName: APP_NAME, phoneLast4: null },
    connectError: "declined",
  },
  phone: { screen: "phone", shell: shell("phone"), signInFirst: false, linkNotice: null, countries, defaultCountry: "US", passkeyOptions: null, passkeyAutofill: false },
  "phone-sign-in": phoneSignIn,
  "phone-passkey": { ...phoneSignIn, passkeyOptions: "/flow/gallery/passkey/options" },
  "phone-link": {
    screen: "phone",
    shell: shell("phone"),
    signInFirst: false,
    linkNotice: { appName: APP_NAME, phoneLast4: null },
    countries,
    defaultCountry: "GB",
    passkeyOptions: null,
    passkeyAutofill: false,
  },
  code: { screen: "code", shell: shell("code"), phoneLast4: "4567", sandboxCode: null, outbox: null, linkNotice: null, resendAfterSeconds: 30 },
  "code-sandbox": { screen: "code", shell: shell("code"), phoneLast4: "0100", sandboxCode: "424242", outbox: null, linkNotice: null, resendAfterSeconds: 30 },
  "code-outbox": { screen: "code", shell: shell("code"), phoneLast4: "4567", sandboxCode: null, outbox: "/dev/outbox", linkNotice: null, resendAfterSeconds: 30 },
  "code-link": {
    screen: "code",
    shell: shell("code"),
    phoneLast4: "4567",
    sandboxCode: null,
    outbox: null,
    linkNotice: { appName: APP_NAME, phoneLast4: "4567" },
    resendAfterSeconds: 30,
  },
  "mailbox-required": mailboxBase,
  "mailbox-either": { ...mailboxBase, rows: [row("gmail", "connect", true), row("outlook", "connect", true)], hint: "Connect one of them to continue: one is enough." },
  "mailbox-connected": { ...mailboxBase, rows: [row("gmail", "connected")], connectedMailbox: true, continueEnabled: true, hint: "Your mailbox is connected." },
  "mailbox-offered": mailboxOffered,
  "mailbox-code-sent": { ...mailboxOffered, emailCode: { pendingEmail: "ada@example.com" } },
  "mailbox-verify-error": { ...mailboxOffered, verifyError: "GitHub" },
  "app-required": {
    screen: "app",
    shell: shell("app", ["app", "phone", "code", "receipt"]),
    app: "gmail",
    purpose: `${APP_NAME} reads your booking confirmations to plan your trips.`,
    linkNotice: null,
    connectError: null,
    rows: [row("gmail", "connect", true)],
    met: false,
  },
  "app-connected": {
    screen: "app",
    shell: shell("app", ["app", "phone", "code", "receipt"]),
    app: "gmail",
    purpose: null,
    linkNotice: { appName: APP_NAME, phoneLast4: null },
    connectError: null,
    rows: [row("gmail", "connected")],
    met: true,
  },
  apps: {
    screen: "apps",
    shell: shell("apps", ["apps", "receipt"]),
    app: null,
    purpose: null,
    linkNotice: null,
    connectError: "expired",
    rows: apps({ gmail: row("gmail", "connected"), notion: row("notion", "connect", false, "Connect (development)") }),
    met: true,
  },
  capability: {
    screen: "capability",
    shell: shell("capability", ["capability", "receipt"]),
    capability: "gmail:send",
    phrase: "send e-mail from your Gmail",
    appLabel: "Gmail",
    permission: "send",
    purpose: null,
    connectError: null,
  },
  "capability-read": {
    screen: "capability",
    shell: shell("capability", ["capability", "receipt"]),
    capability: "gmail:read",
    phrase: "search your Gmail",
    appLabel: "Gmail",
    permission: "read",
    purpose: null,
    connectError: null,
  },
  receipt: receiptBase,
  "receipt-passkey": { ...receiptBase, passkeyOffer: "/account/passkeys/options" },
  "receipt-nothing-new": { ...receiptBase, saved: [], connected: [], fromApps: [], agentApps: [] },
  "receipt-messages": { ...receiptBase, returnAction: null, backToMessages: true },
  "receipt-own": { ...receiptBase, shell: { ...receiptBase.shell, appName: SERVICE_NAME, developerName: null, own: true }, approved: false, agentApps: [] },
  "ended-unknown": { screen: "ended", kind: "unknown", appName: "Sign in", own: false, home: "/" },
  "ended-foreign": { screen: "ended", kind: "foreign", appName: APP_NAME, own: false, home: "https://travel.example.com" },
  "ended-finished": { screen: "ended", kind: "ended", appName: APP_NAME, own: false, home: "https://travel.example.com" },
  "ended-expired": { screen: "ended", kind: "expired", appName: SERVICE_NAME, own: true, home: "/" },
} as const satisfies Record<string, FlowScreenView>;

export type GalleryState = keyof typeof GALLERY_STATES;

export function galleryState(name: string): FlowScreenView | null {
  return Object.hasOwn(GALLERY_STATES, name) ? GALLERY_STATES[name as GalleryState] : null;
}
