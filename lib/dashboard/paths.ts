// Where the dashboard sends a browser after a form: only to its own pages, never to an address a form
// or a link names freely.
const PAGES: ReadonlySet<string> = new Set([
  "/dashboard",
  "/dashboard/keys",
  "/dashboard/agents",
  "/dashboard/origins",
  "/dashboard/sso",
  "/dashboard/sign-in-links",
  "/dashboard/webhooks",
  "/dashboard/members",
]);

/** A dashboard page to go back to (the account switcher's), else the overview. */
export function dashboardReturnPath(value: string): string {
  return PAGES.has(value) ? value : "/dashboard";
}

/** Where a sign-in goes on to: an invitation's page, or the overview. */
export function afterSignInPath(value: string): string {
  return /^\/dashboard\/invite\?token=[A-Za-z0-9]{40}$/.test(value) ? value : "/dashboard";
}
