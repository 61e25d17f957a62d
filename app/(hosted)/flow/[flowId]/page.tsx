// The hosted flow (/flow/<id>): the screen the person is on — import, phone number, code, receipt
// (and the mailbox page) — for the browser that started it. Finished, expired and foreign flows each
// get a clear page.
import type { Metadata } from "next";
import { getCountries, getCountryCallingCode } from "libphonenumber-js";
import { cookies, headers } from "next/headers";
import { Badge, ConnectErrorBanner, LinkNotice, Monogram } from "@/components/flow/marks";
import { AppRow, Receipt } from "@/components/flow/screens";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { CodeForm, ContinueForm, CopyButton, DecideForm, ImportForm, PhoneForm, SingleFieldForm } from "@/components/flow/forms";
import { primaryButton, secondaryButton } from "@/components/flow/styles";
import { RESEND_AFTER_SECONDS, takesSandboxCode } from "@/lib/auth/phone-codes";
import { SANDBOX_VERIFICATION_CODE } from "@/lib/sandbox/seed";
import { isThirdPartyProvider, THIRD_PARTY_NAMES } from "@/lib/auth/third-party";
import { agentDisplayName } from "@/lib/agents/agents";
import { memoryPrompt } from "@/lib/flow/bring-in";
import { APP_NAMES, APPS, ASSISTANT_NAMES, ASSISTANTS, EXPORT_ASSISTANTS, type App, type Assistant } from "@/lib/catalogue";
import { screenSequence } from "@/lib/flow/sequence";
import { flowCookieName, openFlowFor, sequenceOf, type FlowSession } from "@/lib/flow/sessions";
import { connectedApps, continueState } from "@/lib/flow/steps";
import { mailboxView } from "@/lib/flow/views";
import { allowCapabilityAction, changeEmailAction, changeNumberAction, emailAction, emailCodeAction, codeAction, continueAction, continueAppAction, continueAppsAction, continueMailboxAction, decideAction, phoneAction, previewAction, resendAction, signInFirstAction, thirdPartyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

const linkButton = `${primaryButton} mt-6`;

function appHome(flow: FlowSession): string {
  return flow.request ? new URL(flow.request.redirect_uri).origin : "/";
}


export default async function FlowPage({
  params,
  searchParams,
}: {
  params: Promise<{ flowId: string }>;
  searchParams: Promise<{ card?: string; connect_error?: string; verify_error?: string; with?: string }>;
}) {
  const { flowId } = await params;
  const { card, connect_error: connectError, verify_error: verifyError, with: verifyWith } = await searchParams;
  const opened = await openFlowFor(flowId, (await cookies()).get(flowCookieName(flowId))?.value);
  const { flow } = opened;
  if (!flow) {
    return (
      <FlowShell appName="Sign in" title="This sign-in link is not valid">
        <p className="mt-3 text-slate-600">Go back to the app you came from and start signing in again.</p>
      </FlowShell>
    );
  }
  const agentName = flow.agentId ? await agentDisplayName(flow.agentId) : null;
  const appName = flow.wayIn === "profile_signup" ? SERVICE_NAME : (agentName ?? "The app");
  if (opened.state === "foreign") {
    return (
      <FlowShell appName={appName} own={flow.wayIn === "profile_signup"} title="Open this sign-in from the app">
        <p className="mt-3 text-slate-600">This sign-in was started in another browser. Start it again from {appName} on this device.</p>
        <a href={appHome(flow)} className={linkButton}>
          Go to {appName}
        </a>
      </FlowShell>
    );
  }
  if (opened.state === "ended") {
    return (
      <FlowShell appName={appName} own={flow.wayIn === "profile_signup"} title="This sign-in has finished">
        <p className="mt-3 text-slate-600">You can close this page, or go back to {appName}.</p>
        <a href={appHome(flow)} className={linkButton}>
          Go to {appName}
        </a>
      </FlowShell>
    );
  }
  if (opened.state === "expired") {
    return (
      <FlowShell appName={appName} own={flow.wayIn === "profile_signup"} title="This sign-in has expired">
        <p className="mt-3 text-slate-600">Signing in has to be finished within 15 minutes. Nothing was shared with {appName}. Start again from there.</p>
        <a href={appHome(flow)} className={linkButton}>
          Start again at {appName}
        </a>
      </FlowShell>
    );
  }

  const steps = screenSequence(sequenceOf(flow));
  const shell = { appName, steps, current: flow.screen, cancelAction: `/flow/${flow.id}/cancel`, own: flow.wayIn === "profile_signup" };
  switch (flow.screen) {
    case "phone":
      return (
        <FlowShell {...shell} title={flow.signInFirst ? "Sign in with your phone" : "Save it to your profile"}>
          <p className="mt-3 text-slate-600">
            {flow.signInFirst
              ? "Enter the number you signed up with. We'll text you a code."
              : `Your profile is kept under your mobile number, so you can bring it to ${appName} and other apps.`}
          </p>
          {flow.connect?.binds_external_id && <LinkNotice appName={appName} />}
          <PhoneForm action={phoneAction.bind(null, flow.id)} countries={countries()} defaultCountry={await defaultCountry()} />
        </FlowShell>
      );
    case "code":
      return (
        <FlowShell {...shell} title="Enter the code">
          <p className="mt-3 text-slate-600">
            We sent a six-digit code to your number ending in <span className="font-semibold text-slate-900">{flow.phoneLast4}</span>.
            {flow.phoneHash && takesSandboxCode({ plane: flow.plane, phoneHash: flow.phoneHash }) && ` The sandbox's number takes the code ${SANDBOX_VERIFICATION_CODE}.`}
          </p>
          {flow.connect?.binds_external_id && <LinkNotice appName={appName} phoneLast4={flow.phoneLast4} />}
          <CodeForm action={codeAction.bind(null, flow.id)} resend={resendAction.bind(null, flow.id)} resendAfterSeconds={RESEND_AFTER_SECONDS} />
          <form action={changeNumberAction.bind(null, flow.id)} className="mt-3 text-center">
            <button type="submit" className="min-h-10 text-sm font-semibold text-brand-700 underline underline-offset-2">
              Use a different number
            </button>
          </form>
        </FlowShell>
      );
    case "receipt":
      return <Receipt flow={flow} appName={appName} shell={shell} />;
    case "mailbox": {
      const view = await mailboxView(flow);
      const { offered, mailboxes } = view;
      return (
        <FlowShell {...shell} title={offered ? "Add your mailbox" : `${appName} asks for your mailbox`}>
          <p className="mt-3 text-slate-600">
            {offered
              ? `Connecting your mailbox shows ${appName} that your email address is yours. You can skip this.`
              : `Connect ${mailboxes.length > 1 ? "one of these mailboxes" : "your mailbox"}. It also shows ${appName} that the address is yours. Assistants and other apps come next.`}
          </p>
          <ConnectErrorBanner code={connectError} />
          {verifyError && (
            <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
              {isThirdPartyProvider(verifyWith) ? THIRD_PARTY_NAMES[verifyWith] : "The provider"} did not confirm an email address for that account. Try another way below.
            </p>
          )}
          <ul className="mt-6 space-y-2">
            {mailboxes.map((m) => (
              <AppRow key={m} flow={flow} app={m} connection={view.connections.find((c) => c.app === m)} required={!view.continueEnabled} />
            ))}
          </ul>
          {view.emailCode && (
            <section aria-labelledby="email-code-title" className="mt-6 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
              <h2 id="email-code-title" className="font-semibold text-slate-900">
                Or confirm your email with a code
              </h2>
              {view.emailCode.pendingEmail ? (
                <>
                  <p className="mt-1 text-sm text-slate-600">
                    We sent a six-digit code to <span className="font-semibold text-slate-900">{view.emailCode.pendingEmail}</span>.
                  </p>
                  <SingleFieldForm
                    action={emailCodeAction.bind(null, flow.id)}
                    name="email_code"
                    label="Code from the email"
                    type="text"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    button="Confirm my email"
                    pendingLabel="Checking…"
                  />
                  <form action={changeEmailAction.bind(null, flow.id)} className="mt-2 text-center">
                    <button type="submit" className="min-h-10 text-sm font-semibold text-brand-700 underline underline-offset-2">
                      Use a different address
                    </button>
                  </form>
                </>
              ) : (
                <SingleFieldForm
                  action={emailAction.bind(null, flow.id)}
                  name="email"
                  label="Email address"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  button="Email me a code"
                  pendingLabel="Sending…"
                />
              )}
            </section>
          )}
          {view.thirdParty.length > 0 && (
            <section aria-labelledby="third-party-title" className="mt-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
              <h2 id="third-party-title" className="font-semibold text-slate-900">
                Or confirm it by signing in
              </h2>
              <p className="mt-1 text-sm text-slate-600">The address your account there has confirmed becomes your verified email. Your phone number stays how you sign in here.</p>
              <div className="mt-3 grid gap-2 sm:grid-cols-2">
                {view.thirdParty.map((p) => (
                  <form key={p} action={thirdPartyAction.bind(null, flow.id, p)}>
                    <button type="submit" className={`${secondaryButton} w-full`}>
                      Continue with {THIRD_PARTY_NAMES[p]}
                    </button>
                  </form>
                ))}
              </div>
            </section>
          )}
          <div className="mt-8 border-t border-slate-200 pt-6">
            <ContinueForm action={continueMailboxAction.bind(null, flow.id)} enabled={view.continueEnabled} label={view.continueLabel} hint={view.hint} />
          </div>
        </FlowShell>
      );
    }
    case "app":
    case "apps": {
      const connections = await connectedApps(flow);
      const apps = flow.screen === "app" && flow.connect?.app ? ([flow.connect.app] as App[]) : [...APPS];
      const met = flow.screen === "apps" || connections.some((c) => c.app === apps[0] && c.status === "active");
      const name = flow.connect?.client_name ?? appName;
      return (
        <FlowShell {...shell} appName={name} title={flow.screen === "app" ? `Connect ${APP_NAMES[apps[0]!] ?? apps[0]}` : "Your connected apps"}>
          <p className="mt-3 text-slate-600">
            {flow.connect?.purpose ?? (flow.screen === "app" ? `${name} asks you to connect it.` : `Connect the apps ${name} can use.`)}
          </p>
          {flow.connect?.binds_external_id && <LinkNotice appName={name} />}
          <ConnectErrorBanner code={connectError} />
          <ul className="mt-6 space-y-2">
            {apps.map((a) => (
              <AppRow key={a} flow={flow} app={a} connection={connections.find((c) => c.app === a)} required={flow.screen === "app" && !met} />
            ))}
          </ul>
          <div className="mt-8 border-t border-slate-200 pt-6">
            <ContinueForm
              action={(flow.screen === "app" ? continueAppAction : continueAppsAction).bind(null, flow.id)}
              enabled={met}
              hint={met ? "You can disconnect an app at any time." : "Connect it to continue."}
            />
          </div>
        </FlowShell>
      );
    }
    case "capability": {
      const name = flow.connect?.client_name ?? appName;
      const [capApp, permission] = (flow.connect?.capability ?? ":").split(":");
      return (
        <FlowShell {...shell} appName={name} title={`Allow ${name} to ${permission?.replace(/_/g, " ")} with ${APP_NAMES[capApp as App] ?? capApp}?`}>
          <p className="mt-3 text-slate-600">{flow.connect?.purpose ?? `${name} asks for this permission. You can take it back at any time.`}</p>
          <p className="mt-4 rounded-xl bg-slate-50 px-4 py-3 font-mono text-sm text-slate-700 ring-1 ring-slate-200">{flow.connect?.capability}</p>
          <div className="mt-6">
            <ContinueForm action={allowCapabilityAction.bind(null, flow.id)} enabled hint="Cancel keeps it off." label="Allow" />
          </div>
        </FlowShell>
      );
    }
    default:
      return <ImportScreen flow={flow} appName={appName} shell={shell} card={card} connectError={connectError} />;
  }
}

function countries() {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, dial: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The country of the browser's first language with a region (en-GB → GB), else the United States. */
async function defaultCountry(): Promise<string> {
  const accept = (await headers()).get("accept-language") ?? "";
  const region = accept.match(/[a-z]{2,3}-([A-Z]{2})\b/)?.[1];
  return region && (getCountries() as string[]).includes(region) ? region : "US";
}


async function ImportScreen({
  flow,
  appName,
  shell,
  card,
  connectError,
}: {
  flow: FlowSession;
  appName: string;
  shell: Omit<React.ComponentProps<typeof FlowShell>, "title" | "children">;
  card?: string;
  connectError?: string;
}) {
  const connections = await connectedApps(flow);
  const state = await continueState(flow, connections);
  const required = new Set(flow.required.flat());
  const unmet = new Set(state.required.filter((r) => !r.met).flatMap((r) => r.names));
  const byRequired = <T extends string>(list: readonly T[]) => [...list].sort((a, b) => Number(unmet.has(b)) - Number(unmet.has(a)));
  const selected = (ASSISTANTS as readonly string[]).includes(card ?? "") ? (card as Assistant) : undefined;
  const item = (p: string) => flow.broughtIn.find((b) => b.provider === p);
  const alternatives = state.required.some((r) => !r.met && r.names.length > 1);
  const signedIn = !!flow.userId;
  const hint = state.enabled
    ? `${appName} will be able to read and add to your profile.`
    : unmet.size
      ? "Import or connect what is marked Required to continue."
      : "Import from one assistant or connect one app to continue.";

  return (
    <FlowShell {...shell} title={`Bring your profile to ${appName}`}>
      <p className="mt-3 text-slate-600">
        Import what an assistant already knows about you, or connect an app. {appName} can then personalise from the start.
      </p>
      {flow.connect?.binds_external_id && <LinkNotice appName={appName} />}
      <ConnectErrorBanner code={connectError} />
      {signedIn && (
        <p className="mt-4 rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200">
          You&rsquo;re signed in. Your profile already has what you imported before; add more if you like.
        </p>
      )}

      <section aria-labelledby="assistants-title" className="mt-6">
        <h2 id="assistants-title" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Assistants
        </h2>
        <ul className="mt-3 space-y-2">
          {byRequired(ASSISTANTS).map((a) => {
            const it = item(a);
            const open = selected === a;
            return (
              <li key={a}>
                <a
                  href={open ? `/flow/${flow.id}` : `/flow/${flow.id}?card=${a}#panel`}
                  aria-expanded={open}
                  className={`flex min-h-14 items-center gap-3 rounded-xl px-4 py-3 ring-1 transition-colors ${open ? "bg-brand-50 ring-brand-600" : "ring-slate-200 hover:bg-slate-50"}`}
                >
                  <Monogram id={a} name={ASSISTANT_NAMES[a]} />
                  <span className="flex-1 font-semibold text-slate-900">{ASSISTANT_NAMES[a]}</span>
                  {it?.confirmed ? (
                    <Badge tone="done">
                      ✓ {it.memories.length} {it.memories.length === 1 ? "memory" : "memories"}
                    </Badge>
                  ) : it ? (
                    <Badge tone="muted">Preview ready</Badge>
                  ) : unmet.has(a) ? (
                    <Badge tone="required">Required</Badge>
                  ) : required.has(a) ? (
                    <Badge tone="done">✓ Done</Badge>
                  ) : null}
                  <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-5 text-slate-400 transition-transform ${open ? "rotate-90" : ""}`} fill="currentColor">
                    <path d="M7.2 4.2a.75.75 0 011.06 0l5.25 5.25a.75.75 0 010 1.06L8.26 15.8a.75.75 0 11-1.06-1.06L11.94 10 7.2 5.26a.75.75 0 010-1.06z" />
                  </svg>
                </a>
                {open && <AssistantPanel flow={flow} assistant={a} />}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="apps-title" className="mt-6">
        <h2 id="apps-title" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Apps
        </h2>
        <ul className="mt-3 space-y-2">
          {byRequired(APPS).map((app) => (
            <AppRow key={app} flow={flow} app={app} connection={connections.find((c) => c.app === app)} required={unmet.has(app)} />
          ))}
        </ul>
      </section>

      <div className="mt-8 border-t border-slate-200 pt-6">
        {alternatives && (
          <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">Where several are marked Required together, one of them is enough.</p>
        )}
        <ContinueForm action={continueAction.bind(null, flow.id)} enabled={state.enabled} hint={hint} label={signedIn ? `Continue to ${appName}` : "Continue"} />
        {!signedIn && (
          <form action={signInFirstAction.bind(null, flow.id)} className="mt-4 text-center text-sm text-slate-600">
            Already have a profile?{" "}
            <button type="submit" className="min-h-10 font-semibold text-brand-700 underline underline-offset-2">
              Sign in
            </button>
          </form>
        )}
      </div>
    </FlowShell>
  );
}

function AssistantPanel({ flow, assistant }: { flow: FlowSession; assistant: Assistant }) {
  const name = ASSISTANT_NAMES[assistant];
  const it = flow.broughtIn.find((b) => b.provider === assistant);
  if (it && !it.confirmed) {
    const shown = it.memories.slice(0, 25);
    return (
      <div id="panel" className="mt-2 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
        <h3 className="font-semibold text-slate-900">
          {it.memories.length} {it.memories.length === 1 ? "memory" : "memories"} from {name} will be saved
        </h3>
        <ul className="mt-3 max-h-72 space-y-1.5 overflow-y-auto text-sm text-slate-700">
          {shown.map((m, i) => (
            <li key={i} className="flex gap-2">
              <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />
              <span>
                {m.text}
                {m.at && <span className="text-slate-500"> · {new Date(m.at).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" })}</span>}
              </span>
            </li>
          ))}
        </ul>
        {it.memories.length > shown.length && <p className="mt-2 text-sm text-slate-500">and {it.memories.length - shown.length} more</p>}
        <DecideForm action={decideAction.bind(null, flow.id)} provider={assistant} count={it.memories.length} />
      </div>
    );
  }
  const prompt = memoryPrompt(assistant);
  return (
    <div id="panel" className="mt-2 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <p className="text-sm font-semibold text-slate-900">1. Ask {name} for its memories of you</p>
      <p className="mt-2 rounded-lg bg-white p-3 text-sm text-slate-700 ring-1 ring-slate-200">{prompt}</p>
      <div className="mt-2">
        <CopyButton text={prompt} />
      </div>
      <p className="mt-4 text-sm font-semibold text-slate-900">2. Bring the answer here</p>
      <ImportForm action={previewAction.bind(null, flow.id)} provider={assistant} providerName={name} acceptsFile={EXPORT_ASSISTANTS.includes(assistant)} />
      {it?.confirmed && <p className="mt-3 text-sm text-slate-600">Importing again replaces the {it.memories.length} memories kept from {name}.</p>}
    </div>
  );
}
