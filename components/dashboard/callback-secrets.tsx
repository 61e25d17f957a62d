// The completion-callback secrets of both planes on the sign-in links page: each plane's current secret
// (behind a disclosure, as it can be read again with a secret key), when it was made, how long the one
// it replaced still signs, and its rotation, keeping the old secret signing for the overlap or not.
import type { CallbackSecretsView } from "@/lib/dashboard/callback-secrets";
import { ActionForm } from "./action-form";
import { Section } from "./shell";
import type { FormAction } from "./pages/actions";

const when = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;

export function CallbackSecretsSection({
  developer,
  secrets,
  overlapHours,
  action,
}: {
  developer: string;
  secrets: CallbackSecretsView;
  overlapHours: number;
  action: FormAction;
}) {
  return (
    <Section
      id="callback-secrets"
      title="Completion callback secrets"
      description={
        <>
          The secret that signs each plane&rsquo;s completion callbacks (<span className="font-mono">Service-Signature</span>), also read with{" "}
          <span className="font-mono">GET /v1/auth/sign-in/callback-secret</span>. During a rotation&rsquo;s overlap a callback carries a signature under each secret, so your
          server keeps verifying while you deploy the new one.
        </>
      }
    >
      <ul className="divide-y divide-slate-200">
        {(["live", "test"] as const).map((plane) => {
          const s = secrets[plane];
          return (
            <li key={plane} className="space-y-3 py-4 first:pt-0 last:pb-0" data-testid={`callback-secret-${plane}`}>
              <p className="text-sm text-slate-800">
                <span className="mr-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{plane}</span>
                Made {when(s.createdAt)}
              </p>
              {s.previous && (
                <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
                  The secret it replaced also signs until {when(s.previous.expiresAt)}.
                </p>
              )}
              <details>
                <summary className="inline-flex min-h-10 cursor-pointer items-center text-sm font-semibold text-brand-700">Show the {plane} secret</summary>
                <code className="mt-2 block rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-200" data-testid="callback-secret-value">
                  {s.secret}
                </code>
              </details>
              <ActionForm action={action} hidden={{ developer, plane }} submit={`Rotate the ${plane} secret`} pendingLabel="Rotating…" tone="secondary">
                <fieldset>
                  <legend className="text-sm font-semibold text-slate-900">
                    The old {plane} secret<span className="sr-only"> after rotating</span>
                  </legend>
                  <div className="mt-2 space-y-2">
                    {(
                      [
                        ["keep", `Keeps signing for ${overlapHours} hours, beside the new one`],
                        ["end", "Stops now (it leaked)"],
                      ] as const
                    ).map(([value, text]) => (
                      <label
                        key={value}
                        className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 ring-1 ring-slate-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-600"
                      >
                        <input type="radio" name="overlap" value={value} defaultChecked={value === "keep"} className="size-4 accent-brand-600" />
                        <span className="text-sm text-slate-900">{text}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              </ActionForm>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
