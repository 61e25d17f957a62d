// The catalogue: every assistant and app the service knows, by the names the specification gives
// them, with their display names and roles (which apps the import screen offers, which are mailboxes,
// which assistants' export files the import screen reads, which connectors a sign-in link may name).
// Everything that lists, checks or shows them reads it from here: the required grammar, the flow's
// screens, connections and claims.

/** Assistants a person imports from: a pasted list of memories, or an export file. */
export const ASSISTANTS = ["chatgpt", "claude", "gemini", "grok"] as const;
export type Assistant = (typeof ASSISTANTS)[number];
export const ASSISTANT_NAMES: Readonly<Record<Assistant, string>> = { chatgpt: "ChatGPT", claude: "Claude", gemini: "Gemini", grok: "Grok" };
/** Assistants whose export file the import screen reads (conversations.json). */
export const EXPORT_ASSISTANTS: readonly Assistant[] = ["chatgpt", "claude"];

/** The apps the import screen offers by default, in its order; also every app a connect link's list shows and `required` may name. */
export const IMPORT_SCREEN_APPS = ["gmail", "calendar", "drive", "notion", "outlook"] as const;
export type ImportScreenApp = (typeof IMPORT_SCREEN_APPS)[number];
/** Every app a person can connect: the import screen's, and Sheets, which only a link naming it offers. */
export const APPS = [...IMPORT_SCREEN_APPS, "sheets"] as const;
export type App = (typeof APPS)[number];
export const APP_NAMES: Readonly<Record<App, string>> = {
  gmail: "Gmail",
  calendar: "Google Calendar",
  drive: "Google Drive",
  notion: "Notion",
  outlook: "Outlook",
  sheets: "Google Sheets",
};

/** The apps that are mailboxes; `email` in a required entry means any one of them. */
export const MAILBOX_APPS = ["gmail", "outlook"] as const satisfies readonly ImportScreenApp[];
export type MailboxApp = (typeof MAILBOX_APPS)[number];
/** The name that stands for every mailbox in the required grammar. */
export const ANY_MAILBOX = "email";

export function isAssistant(name: string): name is Assistant {
  return (ASSISTANTS as readonly string[]).includes(name);
}

export function isApp(name: string): name is App {
  return (APPS as readonly string[]).includes(name);
}

export function isImportScreenApp(name: string): name is ImportScreenApp {
  return (IMPORT_SCREEN_APPS as readonly string[]).includes(name);
}

/** The apps a person's own list shows: the import screen's, then any other app they have a connection to. */
export function appsListedFor(connected: readonly string[]): App[] {
  return APPS.filter((app) => isImportScreenApp(app) || connected.includes(app));
}

export function isMailbox(name: string): name is MailboxApp {
  return (MAILBOX_APPS as readonly string[]).includes(name);
}

/** The connectors a sign-in link may name: apps (never outlook), and Sheets, which has its own older page. */
export const SIGN_IN_LINK_CONNECTORS = ["gmail", "calendar", "drive", "notion", "sheets"] as const satisfies readonly App[];
