// The hosted flow a sign-in opens (/flow/<id>): the flow's current state for the browser that
// started it. Finished, expired and foreign flows each get a clear page.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { FlowShell } from "@/components/flow/flow-shell";
import { db } from "@/lib/db";
import { findFlow, flowCookieName, isExpired, isFlowBrowser } from "@/lib/flow/sessions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

function appHome(redirectUri: string): string {
  return new URL(redirectUri).origin;
}

export default async function FlowPage({ params }: { params: Promise<{ flowId: string }> }) {
  const { flowId } = await params;
  const flow = await findFlow(flowId);
  if (!flow) {
    return (
      <FlowShell appName="Sign in" title="This sign-in link is not valid">
        <p className="mt-3 text-slate-600">Go back to the app you came from and start signing in again.</p>
      </FlowShell>
    );
  }
  const agent = await (await db()).agent.findUnique({ where: { id: flow.agentId }, select: { displayName: true } });
  const appName = agent?.displayName ?? "The app";
  const home = appHome(flow.request.redirect_uri);
  const jar = await cookies();
  if (!(await isFlowBrowser(flow.id, jar.get(flowCookieName(flow.id))?.value))) {
    return (
      <FlowShell appName={appName} title="Open this sign-in from the app">
        <p className="mt-3 text-slate-600">This sign-in was started in another browser. Start it again from {appName} on this device.</p>
        <a href={home} className="mt-6 inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700">
          Go to {appName}
        </a>
      </FlowShell>
    );
  }
  if (flow.status !== "active") {
    return (
      <FlowShell appName={appName} title="This sign-in has finished">
        <p className="mt-3 text-slate-600">You can close this page, or go back to {appName}.</p>
        <a href={home} className="mt-6 inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700">
          Go to {appName}
        </a>
      </FlowShell>
    );
  }
  if (isExpired(flow)) {
    return (
      <FlowShell appName={appName} title="This sign-in has expired">
        <p className="mt-3 text-slate-600">Signing in has to be finished within 15 minutes. Nothing was shared. Start again from {appName}.</p>
        <a href={home} className="mt-6 inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700">
          Start again at {appName}
        </a>
      </FlowShell>
    );
  }
  return (
    <FlowShell appName={appName} title={`Sign in to ${appName}`}>
      <p className="mt-3 text-slate-600">
        Bring your profile to {appName}: import what an assistant knows about you or connect an app, then confirm with your phone number.
      </p>
      <form method="post" action={`/flow/${flow.id}/cancel`} className="mt-6">
        <button type="submit" className="inline-flex min-h-11 w-full items-center justify-center rounded-xl px-4 font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50">
          Cancel and go back to {appName}
        </button>
      </form>
    </FlowShell>
  );
}
