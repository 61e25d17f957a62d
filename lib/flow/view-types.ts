// What a flow screen shows, as plain data: one view per screen (lib/flow/views.ts computes them from a
// flow; lib/flow/gallery.ts writes them out by hand), laid out by components/flow/flow-screen.tsx.
import type { ThirdPartyProvider } from "../person-auth/third-party";
import type { App, Assistant } from "../catalogue";
import type { AppState } from "../connectors/providers";
import type { Screen } from "./screens";

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
  /** Where the browser gets a passkey sign-in's options (and the number field's autofill); null: passkeys are not offered. */
  passkeyOptions: string | null;
  /** The number field offers this browser's passkeys in its autofill (conditional UI). */
  passkeyAutofill: boolean;
}

export interface CodeView {
  screen: "code";
  shell: ShellView;
  phoneLast4: string;
  /** The sandbox number's fixed code, said on the page; null for every real number. */
  sandboxCode: string | null;
  /** The development outbox's address where the text messages are kept instead of sent; null when they are sent. */
  outbox: string | null;
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
   * the flow finishes (email_verified's one decision, lib/person-auth/email-proof.ts), by a mailbox connected here.
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
  /** "Sign in faster next time with a passkey": where the browser gets the options; null when not offered in this browser. */
  passkeyOffer: string | null;
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
  /** What this browser's passkey cookie says (lib/passkeys/device.ts): "has", "dismissed", or nothing. */
  passkeyDevice?: "has" | "dismissed" | null;
}
