// Who a dashboard page is for: the signed-in dashboard user, their accounts, and the account the page
// shows (the browser's last choice, while they are still a member of it). Pages redirect from here:
// signed out to the sign-in page, a user with no account yet to the page that names it.
import { redirect } from "next/navigation";
import { chosenAccount, membershipsOf, type Membership } from "../developer-auth/accounts";
import { currentDashboardUser } from "../developer-auth/session";
import { defineCookie, readCookie } from "../http/cookies";

/** The cookie holding the account the browser last chose (a developer id; membership is checked on every use). */
export const DASHBOARD_ACCOUNT_COOKIE = "dashboard.account";
export const dashboardAccountCookie = defineCookie({ name: DASHBOARD_ACCOUNT_COOKIE, path: "/", maxAge: 365 * 86_400 });
export const DASHBOARD_SIGN_IN_PATH = "/dashboard/sign-in";
export const DASHBOARD_WELCOME_PATH = "/dashboard/welcome";

export interface DashboardContext {
  user: { id: string; email: string };
  memberships: Membership[];
  account: Membership;
}

/** The page's context; redirects when signed out or without an account. */
export async function dashboardPage(): Promise<DashboardContext> {
  const user = await currentDashboardUser();
  if (!user) redirect(DASHBOARD_SIGN_IN_PATH);
  const memberships = await membershipsOf(user.id);
  const account = chosenAccount(memberships, await readCookie(dashboardAccountCookie));
  if (!account) redirect(DASHBOARD_WELCOME_PATH);
  return { user, memberships, account };
}
