// The account page's passkeys: each one's name, when it was made and last used, renaming and removing
// it, and adding one. Removing the last leaves the number, which still signs the person in.
import { PasskeyAdd } from "@/components/flow/passkey";
import type { ActionState } from "@/lib/actions/state";

export interface PasskeyShown {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const day = (d: Date) => d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

const NOTICES: Record<string, string> = {
  renamed: "Passkey renamed.",
  removed: "Passkey removed. It no longer signs you in; your number still does.",
  name_error: "Give the passkey a name of 1 to 60 characters.",
  unknown: "That passkey is not on your account.",
};

export function AccountPasskeys({
  passkeys,
  notice,
  add,
  rename,
  remove,
}: {
  passkeys: PasskeyShown[];
  notice?: string;
  add: (state: ActionState, form: FormData) => Promise<ActionState>;
  rename: (passkeyId: string, form: FormData) => Promise<void>;
  remove: (passkeyId: string) => Promise<void>;
}) {
  const said = notice ? NOTICES[notice] : undefined;
  const bad = notice === "name_error" || notice === "unknown";
  return (
    <section aria-labelledby="passkeys-title" className="mt-6">
      <h2 id="passkeys-title" className="font-semibold text-slate-900">
        Passkeys
      </h2>
      <p className="mt-2 text-sm text-slate-600">Sign in with your face, fingerprint or screen lock instead of a text message. Your number keeps working either way.</p>
      {said && (
        <p role={bad ? "alert" : "status"} className={`mt-3 text-sm font-medium ${bad ? "text-red-700" : "text-emerald-800"}`}>
          {said}
        </p>
      )}
      {passkeys.length > 0 && (
        <ul className="mt-3 space-y-2">
          {passkeys.map((p) => (
            <li key={p.id} className="rounded-xl px-4 py-3 ring-1 ring-slate-200">
              <p className="font-medium break-all text-slate-900">{p.name}</p>
              <p className="mt-0.5 text-sm text-slate-600">
                Created {day(p.createdAt)} · {p.lastUsedAt ? `last used ${day(p.lastUsedAt)}` : "not used yet"}
              </p>
              <div className="mt-2 flex flex-wrap items-end gap-2">
                <form action={rename.bind(null, p.id)} className="flex flex-wrap items-end gap-2">
                  <label className="text-sm text-slate-700">
                    <span className="sr-only">New name for {p.name}</span>
                    <input
                      name="name"
                      defaultValue={p.name}
                      maxLength={60}
                      required
                      className="block min-h-10 w-44 rounded-lg border-0 bg-white px-3 text-sm text-slate-900 ring-1 ring-slate-300 focus:ring-2 focus:ring-brand-600"
                    />
                  </label>
                  <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50">
                    Rename<span className="sr-only">&nbsp;{p.name}</span>
                  </button>
                </form>
                <form action={remove.bind(null, p.id)}>
                  <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                    Remove<span className="sr-only">&nbsp;{p.name}</span>
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <PasskeyAdd optionsUrl="/account/passkeys/options" add={add} />
    </section>
  );
}
