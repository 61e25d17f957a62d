// The account page's "sign out everywhere": ends every browser session of the person (a phone left
// behind, a shared computer), this one too, by raising their stored session version.
export function SignOutEverywhere({ action }: { action: () => Promise<void> }) {
  return (
    <section aria-labelledby="sessions-title" className="mt-6">
      <h2 id="sessions-title" className="font-semibold text-slate-900">
        Signed in elsewhere?
      </h2>
      <p className="mt-2 text-sm text-slate-600">Signs you out on every browser and device, this one too. Agents you approved keep their access: revoke an agent to end it.</p>
      <form action={action} className="mt-3">
        <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
          Sign out everywhere
        </button>
      </form>
    </section>
  );
}
