// The account's OpenID Connect clients (SSO clients) of both planes: make a public or confidential
// one (its secret shown once), add and remove callbacks. Clients made here register no scopes: they
// send scope=openid email profile themselves.
import type { DashboardContext } from "@/lib/dashboard/context";
import type { ssoClientsOf } from "@/lib/dashboard/sso-clients";
import { ActionForm } from "../action-form";
import { DashboardShell, Section } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";
import { PlaneField, SelectField } from "../fields";

export type SsoData = Awaited<ReturnType<typeof ssoClientsOf>>;

const METHOD_NAMES: Record<string, string> = {
  none: "Public (PKCE, no secret)",
  client_secret_basic: "Confidential · client_secret_basic",
  client_secret_post: "Confidential · client_secret_post",
};

export function SsoClientsPage({ ctx, data: clients, actions }: { ctx: DashboardContext; data: SsoData; actions: DashboardActions }) {
  const { addSsoCallbackAction, createSsoClientAction, removeSsoCallbackAction, signOutAction, switchAccountAction } = actions;
  const developer = ctx.account.developerId;
  return (
    <DashboardShell
      ctx={ctx}
      current="sso"
      title="SSO clients"
      intro={
        <p>
          OpenID Connect clients for &ldquo;Sign in with Profile Service&rdquo;. A client made here registers no scopes: its authorization requests send{" "}
          <code>scope=openid email profile</code>. Callbacks off localhost need their origin approved first.
        </p>
      }
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <Section id="create-client" title="Create a client">
        <ActionForm action={createSsoClientAction} hidden={{ developer }} submit="Create client" pendingLabel="Creating…">
          <div className="grid gap-4 sm:grid-cols-3">
            <PlaneField id="client-plane" />
            <SelectField id="client-method" name="method" label="Type" options={Object.entries(METHOD_NAMES)} defaultValue="none" className="sm:col-span-2" />
            <div className="sm:col-span-3">
              <label htmlFor="client-callback" className={labelStyle}>
                Callback URL
              </label>
              <input
                id="client-callback"
                name="redirect_uri"
                type="url"
                required
                maxLength={2048}
                className={`${inputStyle} font-mono`}
                placeholder="https://app.example.com/auth/callback"
              />
            </div>
          </div>
        </ActionForm>
      </Section>
      <Section id="clients" title="Your clients">
        {clients.length === 0 ? (
          <p className="text-sm text-slate-600">No clients yet.</p>
        ) : (
          <ul className="space-y-4">
            {clients.map((c) => (
              <li key={c.client_id} className="rounded-xl p-4 ring-1 ring-slate-200" data-testid="client-row">
                <p className="font-mono text-sm font-semibold break-all text-slate-900">{c.client_id}</p>
                <p className="text-sm text-slate-600">
                  {c.plane === "live" ? "Live" : "Test"} · {METHOD_NAMES[c.token_endpoint_auth_method] ?? c.token_endpoint_auth_method}
                </p>
                <h3 className="mt-3 text-sm font-semibold text-slate-900">Callbacks</h3>
                <ul className="mt-1 divide-y divide-slate-100">
                  {c.redirect_uris.map((uri) => (
                    <li key={uri} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <span className="min-w-0 font-mono text-sm break-all text-slate-800">{uri}</span>
                      <ActionForm
                        action={removeSsoCallbackAction}
                        hidden={{ developer, client: c.client_id, plane: c.plane, redirect_uri: uri }}
                        submit={
                          <>
                            Remove<span className="sr-only"> {uri}</span>
                          </>
                        }
                        pendingLabel="Removing…"
                        tone="danger"
                        layout="inline"
                      />
                    </li>
                  ))}
                </ul>
                <ActionForm
                  action={addSsoCallbackAction}
                  hidden={{ developer, client: c.client_id }}
                  submit="Add callback"
                  pendingLabel="Adding…"
                  tone="secondary"
                  className="mt-3"
                >
                  <div>
                    <label htmlFor={`cb-${c.client_id}`} className={labelStyle}>
                      New callback URL<span className="sr-only"> for {c.client_id}</span>
                    </label>
                    <input
                      id={`cb-${c.client_id}`}
                      name="redirect_uri"
                      type="url"
                      required
                      maxLength={2048}
                      className={`${inputStyle} font-mono`}
                      placeholder="http://localhost:3000/callback"
                    />
                  </div>
                </ActionForm>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </DashboardShell>
  );
}
