// A flow this browser cannot go on with: not a flow at all, another browser's, finished, or expired.
import { FlowShell } from "@/components/flow/flow-shell";
import { primaryButton } from "@/components/flow/styles";
import type { EndedView } from "@/lib/flow/views";

const linkButton = `${primaryButton} mt-6`;

export function EndedScreen({ view }: { view: EndedView }) {
  const { appName, own, home } = view;
  switch (view.kind) {
    case "unknown":
      return (
        <FlowShell appName={appName} title="This sign-in link is not valid">
          <p className="mt-3 text-slate-600">Go back to the app you came from and start signing in again.</p>
        </FlowShell>
      );
    case "foreign":
      return (
        <FlowShell appName={appName} own={own} title="Open this sign-in from the app">
          <p className="mt-3 text-slate-600">This sign-in was started in another browser. Start it again from {appName} on this device.</p>
          <a href={home} className={linkButton}>
            Go to {appName}
          </a>
        </FlowShell>
      );
    case "ended":
      return (
        <FlowShell appName={appName} own={own} title="This sign-in has finished">
          <p className="mt-3 text-slate-600">You can close this page, or go back to {appName}.</p>
          <a href={home} className={linkButton}>
            Go to {appName}
          </a>
        </FlowShell>
      );
    case "expired":
      return (
        <FlowShell appName={appName} own={own} title="This sign-in has expired">
          <p className="mt-3 text-slate-600">Signing in has to be finished within 15 minutes. Nothing was shared with {appName}. Start again from there.</p>
          <a href={home} className={linkButton}>
            Start again at {appName}
          </a>
        </FlowShell>
      );
  }
}
