// The confirmation before the signed-in person's account is deleted: what goes, the export first, and
// the word to type (with the refusal when it was typed wrong).
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { secondaryButton } from "@/components/flow/styles";
import { DELETE_CONFIRMATION_WORD } from "@/lib/account/delete";
import type { AccountActions } from "./actions";

export function DeleteAccountPage({ data, actions }: { data: { invalid: boolean }; actions: AccountActions }) {
  const { deleteAccountAction } = actions;
  const { invalid } = data;
  return (
    <FlowShell own appName={SERVICE_NAME} title="Delete your account">
      <p className="mt-3 text-slate-600">This deletes your profile and everything the service holds about you, at once and for good:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>every memory, import and the profile agents read;</li>
        <li>your approvals of agents, and every token, session and link they hold;</li>
        <li>your connected apps (their access is revoked at the app) and your email address;</li>
        <li>the access log, and the codes sent to your number.</li>
      </ul>
      <p className="mt-3 text-sm text-slate-600">
        Want a copy first?{" "}
        <a href="/account/export.json" download className="font-semibold text-brand-700 underline underline-offset-4">
          Download everything (JSON)
        </a>
        .
      </p>
      <form action={deleteAccountAction} className="mt-6">
        <label htmlFor="confirmation" className="block font-medium text-slate-900">
          Type <span className="font-mono font-semibold">{DELETE_CONFIRMATION_WORD}</span> to confirm
        </label>
        <input
          id="confirmation"
          name="confirmation"
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "confirmation-error" : undefined}
          className="mt-2 block min-h-12 w-full rounded-xl border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-brand-600"
        />
        {invalid && (
          <p id="confirmation-error" role="alert" className="mt-2 text-sm font-medium text-red-700">
            Type {DELETE_CONFIRMATION_WORD} to delete your account.
          </p>
        )}
        <button
          type="submit"
          className="mt-4 inline-flex min-h-12 w-full items-center justify-center rounded-xl bg-red-700 px-4 text-base font-semibold text-white hover:bg-red-800"
        >
          Delete my account
        </button>
      </form>
      <a href="/account" className={`${secondaryButton} mt-3`}>
        Keep my account
      </a>
    </FlowShell>
  );
}
