// Small marks shared by the hosted pages: an assistant's or app's monogram, a status badge, and the
// banner for an app that could not be connected.
import { APP_NAMES, type App, type Assistant } from "@/lib/catalogue";
import { ownEntry } from "@/lib/platform/own";

const MONOGRAM_COLORS: Readonly<Record<Assistant | App, string>> = {
  chatgpt: "bg-emerald-600",
  claude: "bg-orange-600",
  gemini: "bg-blue-600",
  grok: "bg-slate-900",
  gmail: "bg-red-600",
  calendar: "bg-sky-600",
  drive: "bg-amber-500",
  notion: "bg-slate-800",
  outlook: "bg-blue-700",
  sheets: "bg-green-700",
};

export function Monogram({ id, name }: { id: string; name: string }) {
  return (
    <span
      aria-hidden="true"
      className={`flex size-9 shrink-0 items-center justify-center rounded-lg text-sm font-bold text-white ${ownEntry(MONOGRAM_COLORS, id) ?? "bg-slate-500"}`}
    >
      {name.replace(/^Google /, "").slice(0, 1)}
    </span>
  );
}

export function Badge({ children, tone }: { children: React.ReactNode; tone: "required" | "done" | "muted" }) {
  const tones = { required: "bg-amber-100 text-amber-900", done: "bg-emerald-100 text-emerald-800", muted: "bg-slate-100 text-slate-600" };
  return <span className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold ${tones[tone]}`}>{children}</span>;
}

const CONNECT_ERRORS: Record<string, string> = {
  declined: "The app was not connected: access was not allowed.",
  expired: "Connecting took too long. Try again.",
  unknown_attempt: "That connection was already finished or cancelled.",
  other_browser: "That connection was started in another browser. Connect again from this one.",
  not_configured: "This app cannot be connected on this service.",
  unknown_app: "This app cannot be connected.",
  scope_not_granted: "The permission was not granted at the app's own consent page. Allow it again and leave its box ticked.",
};

export function ConnectErrorBanner({ code }: { code?: string }) {
  if (!code) return null;
  return (
    <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
      {ownEntry(CONNECT_ERRORS, code) ?? "The app could not be connected. Try again."}
    </p>
  );
}

/**
 * On every screen of a connect link that binds the developer's own id for a person: which profile is
 * linked (the one of the number and code entered in this browser) and what the app can then do with it.
 */
export function LinkNotice({ appName, phoneLast4 }: { appName: string; phoneLast4?: string | null }) {
  const what = `${appName} will be able to read that profile (identity, preferences, summary and memories) and add to it.`;
  return (
    <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="link-notice">
      {phoneLast4
        ? `Entering the code links the profile of the number ending in ${phoneLast4} to ${appName}. ${what} If this is not your number, stop here.`
        : `${appName} asked to link its account to your profile: the profile of the number you enter next, with the code we text to it. ${what}`}
    </p>
  );
}

/** An app as a row shows it: its monogram (dimmed when it cannot be connected here), its name, and a line about its state. */
export function AppIdentity({ app, dimmed, detail, className = "min-w-0 flex-1" }: { app: App; dimmed: boolean; detail: string; className?: string }) {
  return (
    <>
      <span className={dimmed ? "opacity-60" : undefined}>
        <Monogram id={app} name={APP_NAMES[app]} />
      </span>
      <span className={className}>
        <span className="block font-semibold text-slate-900">{APP_NAMES[app]}</span>
        <span className="block break-all text-sm text-slate-500">{detail}</span>
      </span>
    </>
  );
}
