// The account's API keys on both planes: create (the secret shown once), rotate (the new key shown
// once; the old one works for the overlap, then stops) and revoke (at once). Each says who made it;
// the keys of people no longer members can be revoked per person.
import type { DashboardContext } from "@/lib/dashboard/context";
import { formerMembersKeys, KEY_ROTATION_OVERLAP_HOURS, type KeyMadeBy, type keysOf } from "@/lib/dashboard/keys";
import { FormerMemberKeysSection } from "../former-member-keys";
import { ActionForm } from "../action-form";
import { DashboardShell, Section } from "../shell";
import { buttonStyles, inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";
import { PlaneField, SelectField } from "../fields";

export type KeysData = Awaited<ReturnType<typeof keysOf>>;

const when = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;

function madeByText(m: KeyMadeBy, you: string): string {
  if (m.via === "dashboard") return m.dashboardUserId === you ? "made by you" : m.member ? `made by ${m.email}` : `made by ${m.email} (no longer a member)`;
  if (m.via === "command_line") return "made with the command-line tool";
  if (m.via === "sandbox") return "made with the sandbox";
  return "maker not recorded";
}

export function KeysPage({ ctx, data: keys, actions }: { ctx: DashboardContext; data: KeysData; actions: DashboardActions }) {
  const { createKeyAction, revokeFormerMemberKeysAction, revokeKeyAction, rotateKeyAction, signOutAction, switchAccountAction } = actions;
  const developer = ctx.account.developerId;
  return (
    <DashboardShell
      ctx={ctx}
      current="keys"
      title="API keys"
      intro={
        <p>
          Secret keys (<code>sk_</code>, <code>sk_test_</code>) stay on your servers; publishable keys (<code>pk_</code>, <code>pk_test_</code>) may sit in a web page. Test keys
          reach only test users.
        </p>
      }
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <Section id="create" title="Create a key">
        <ActionForm action={createKeyAction} hidden={{ developer }} submit="Create key" pendingLabel="Creating…">
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              id="kind"
              name="kind"
              label="Kind"
              options={[
                ["secret", "Secret"],
                ["publishable", "Publishable"],
              ]}
            />
            <PlaneField id="plane" />
            <div>
              <label htmlFor="key-name" className={labelStyle}>
                Name <span className="font-normal text-slate-500">(optional)</span>
              </label>
              <input id="key-name" name="name" type="text" maxLength={100} className={inputStyle} placeholder="Production server" />
            </div>
          </div>
        </ActionForm>
      </Section>
      <FormerMemberKeysSection developer={developer} former={formerMembersKeys(keys)} action={revokeFormerMemberKeysAction} />
      {(["live", "test"] as const).map((plane) => {
        const list = keys.filter((k) => k.plane === plane);
        return (
          <Section
            key={plane}
            id={`${plane}-keys`}
            title={plane === "live" ? "Live keys" : "Test keys"}
            description={`Rotating a key gives a new one and keeps the old one working for ${KEY_ROTATION_OVERLAP_HOURS} hours, so you can deploy it without downtime. The MCP sessions the old key minted end at once.`}
          >
            {list.length === 0 ? (
              <p className="text-sm text-slate-600">No {plane} keys yet.</p>
            ) : (
              <ul className="divide-y divide-slate-200" data-testid={`${plane}-keys`}>
                {list.map((k) => (
                  <li key={k.id} className="flex flex-wrap items-start gap-x-4 gap-y-2 py-3" data-testid="key-row">
                    <div className="min-w-48 flex-1">
                      <p className="font-mono text-sm text-slate-900">
                        {k.prefix}…{k.name && <span className="ml-2 font-sans font-semibold">{k.name}</span>}
                      </p>
                      <p className="mt-0.5 text-sm text-slate-600">
                        {k.kind === "secret" ? "Secret" : "Publishable"} · created {when(k.createdAt)} · {k.lastUsedAt ? `last used ${when(k.lastUsedAt)}` : "never used"}
                      </p>
                      <p className="mt-0.5 text-sm wrap-anywhere text-slate-600" data-testid="key-maker">
                        {madeByText(k.madeBy, ctx.user.id)}
                      </p>
                      <p className="mt-1 text-sm">
                        {k.state === "active" && <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">Active</span>}
                        {k.state === "rotating" && (
                          <span className="inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                            Rotated · works until {when(k.revokedAt!)}
                          </span>
                        )}
                        {k.state === "revoked" && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">Revoked {when(k.revokedAt!)}</span>}
                      </p>
                    </div>
                    {/* The forms stay while the key is rotating, so the new key shown under Rotate stays on the page. */}
                    {k.state !== "revoked" && (
                      <div className="flex w-full flex-wrap gap-2 sm:w-auto sm:max-w-md">
                        <ActionForm
                          action={rotateKeyAction}
                          hidden={{ developer, key: k.id }}
                          submit={
                            k.state === "active" ? (
                              <>
                                Rotate<span className="sr-only"> key {k.prefix}</span>
                              </>
                            ) : (
                              "Rotated"
                            )
                          }
                          pendingLabel="Rotating…"
                          tone="secondary"
                          layout="inline"
                          disabled={k.state !== "active"}
                        />
                        {/* Revoking cannot be undone and takes effect at once: it asks twice. */}
                        <details className="w-full sm:w-auto">
                          <summary className={`${buttonStyles.danger} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
                            Revoke…<span className="sr-only"> key {k.prefix}</span>
                          </summary>
                          <div className="mt-2 rounded-xl bg-red-50 p-3 ring-1 ring-red-200">
                            <p className="mb-2 text-sm text-red-900">The key stops working at once, for every server using it. This cannot be undone.</p>
                            <ActionForm
                              action={revokeKeyAction}
                              hidden={{ developer, key: k.id }}
                              submit={
                                <>
                                  Revoke now<span className="sr-only"> key {k.prefix}</span>
                                </>
                              }
                              pendingLabel="Revoking…"
                              tone="danger"
                              layout="inline"
                            />
                          </div>
                        </details>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Section>
        );
      })}
    </DashboardShell>
  );
}
