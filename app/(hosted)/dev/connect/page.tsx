// /dev/connect — the development provider's consent page (CONNECT_DRIVER=development): stands in for
// Google's, Microsoft's or Notion's when this service has no credentials for them, so a person can
// try connecting apps locally. They name the address to connect as; nothing is fetched anywhere.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { primaryButton, secondaryButton } from "@/components/flow/styles";
import { CONNECTORS } from "@/lib/connectors/providers";
import { devConsentRequest } from "@/lib/connectors/dev-consent";
import { env } from "@/lib/env";
import { APP_NAMES } from "@/lib/catalogue";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Development connection", robots: { index: false } };

const PROVIDER_NAMES: Record<string, string> = { google: "Google", microsoft: "Microsoft", notion: "Notion" };

export default async function DevConnectPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (env().CONNECT_DRIVER !== "development") notFound();
  const query = await searchParams;
  const parsed = devConsentRequest.safeParse(query);
  if (!parsed.success) {
    return (
      <FlowShell own appName={SERVICE_NAME} title="This connection request is not valid">
        <p className="mt-3 text-slate-600">Go back and start connecting the app again.</p>
      </FlowShell>
    );
  }
  const r = parsed.data;
  const app = APP_NAMES[r.app];
  const provider = PROVIDER_NAMES[CONNECTORS[r.app].id];
  return (
    <FlowShell own appName={SERVICE_NAME} title={`Connect ${app}`}>
      <p className="mt-3 text-slate-600">
        This service has no {provider} credentials, so this development page stands in for {provider}&rsquo;s. Choose the address the connection is for. Nothing is read from any
        account, and the address is not treated as verified.
      </p>
      <form method="post" action="/dev/connect/decide" className="mt-6 space-y-4">
        {(["app", "state", "code_challenge", "redirect_uri"] as const).map((k) => (
          <input key={k} type="hidden" name={k} value={r[k]} />
        ))}
        <div>
          <label htmlFor="email" className="block text-sm font-semibold text-slate-900">
            {app} address
          </label>
          <input
            id="email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            aria-invalid={query.missing === "email" || undefined}
            aria-describedby={query.missing === "email" ? "email-error" : undefined}
            className="mt-1.5 block min-h-12 w-full rounded-xl border border-slate-300 px-3 text-base text-slate-900 focus:border-brand-600"
          />
          {query.missing === "email" && (
            <p id="email-error" role="alert" className="mt-1.5 text-sm font-medium text-red-700">
              Enter the address to connect as.
            </p>
          )}
        </div>
        <button type="submit" name="decision" value="allow" className={`${primaryButton} w-full`}>
          Allow
        </button>
      </form>
      <form method="post" action="/dev/connect/decide" className="mt-2">
        {(["app", "state", "code_challenge", "redirect_uri"] as const).map((k) => (
          <input key={k} type="hidden" name={k} value={r[k]} />
        ))}
        <button type="submit" name="decision" value="deny" className={`${secondaryButton} w-full`}>
          Don&rsquo;t allow
        </button>
      </form>
    </FlowShell>
  );
}
