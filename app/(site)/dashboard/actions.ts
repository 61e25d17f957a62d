"use server";
// The dashboard's forms. Every action that reads or changes an account starts from the dashboard
// session (never an id the form alone names) and passes the membership check in lib; a refusal comes
// back as the form's message.
import { revalidatePath } from "next/cache";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { isThirdPartyProvider } from "@/lib/auth/third-party";
import { createAgentFromForm, updateAgentFromForm } from "@/lib/dashboard/forms";
import { DASHBOARD_ACCOUNT_COOKIE } from "@/lib/dashboard/context";
import { field, formFailure, type DashboardFormState } from "@/lib/dashboard/form";
import { rotateDashboardCallbackSecret } from "@/lib/dashboard/callback-secrets";
import { createKey, formerMembersKeys, keysOf, revokeFormerMemberKeys, revokeKey, rotateKey } from "@/lib/dashboard/keys";
import { addDashboardOrigin, removeDashboardOrigin } from "@/lib/dashboard/origins";
import { cancelDashboardImportJob } from "@/lib/dashboard/imports";
import { addDashboardDestination, removeDashboardDestination, revokeDashboardLine, setDashboardPartnerPhoneFirst } from "@/lib/dashboard/sign-in-links";
import { addSsoCallback, createSsoClient, removeSsoCallback } from "@/lib/dashboard/sso-clients";
import { changeMemberRole, createFirstAccount, removeMember, requireMember } from "@/lib/developer-auth/accounts";
import { sendDashboardCode, verifyDashboardCode } from "@/lib/developer-auth/codes";
import { DashboardError } from "@/lib/developer-auth/errors";
import { acceptInvite, inviteMember, withdrawInvite } from "@/lib/developer-auth/invites";
import { afterSignInPath, dashboardReturnPath } from "@/lib/dashboard/paths";
import { currentDashboardUser, DASHBOARD_CODE_PROVIDER, dashboardSignIn, dashboardSignOut, dashboardTicket, signOutDashboardEverywhere } from "@/lib/developer-auth/session";
import { actionForm, formState, refuseQuietly, serverAction, textArg, type ActionProblem } from "@/lib/http/server-action";
import { env } from "@/lib/env";
import { clientIpFromHeaders } from "@/lib/http/request";

async function requestIp(): Promise<string> {
  const h = await headers();
  return clientIpFromHeaders(h);
}

async function chooseAccount(developerId: string): Promise<void> {
  (await cookies()).set(DASHBOARD_ACCOUNT_COOKIE, developerId, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().BASE_URL.startsWith("https:"),
    path: "/",
    maxAge: 365 * 86_400,
  });
}

/** A call the contract refused (lib/http/server-action.ts), as the form's message. */
const refused = (problem: ActionProblem): DashboardFormState => ({ error: problem.message, field: problem.fields[0]?.field });

/** Runs a change as the signed-in dashboard user; the pages show the result on their next render. */
async function asMember(work: (actorId: string) => Promise<DashboardFormState>): Promise<DashboardFormState> {
  try {
    const user = await currentDashboardUser();
    if (!user) throw new DashboardError("signed_out");
    const state = await work(user.id);
    revalidatePath("/dashboard", "layout");
    return state;
  } catch (err) {
    return formFailure(err);
  }
}

// ── Sign-in ─────────────────────────────────────────────────────────────────────────────────────

export const sendCodeAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  let email: string;
  try {
    ({ email } = await sendDashboardCode({ email: field(form, "email"), ip: await requestIp() }));
  } catch (err) {
    const state = formFailure(err);
    return state && { ...state, field: state.field ?? "email" };
  }
  const next = afterSignInPath(field(form, "next"));
  redirect(`/dashboard/sign-in/code?${new URLSearchParams({ email, ...(next !== "/dashboard" ? { next } : {}) }).toString()}`);
});

export const verifyCodeAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  try {
    const user = await verifyDashboardCode({ email: field(form, "email"), code: field(form, "code") });
    await dashboardSignIn(DASHBOARD_CODE_PROVIDER, { ticket: dashboardTicket(user.id), redirect: false });
  } catch (err) {
    const state = formFailure(err);
    return state && { ...state, field: "code" };
  }
  redirect(afterSignInPath(field(form, "next")));
});

export const thirdPartySignInAction = serverAction({ args: [textArg("provider")], refuse: refuseQuietly }, async (provider: string): Promise<void> => {
  if (!isThirdPartyProvider(provider)) redirect("/dashboard/sign-in");
  await dashboardSignIn(provider, { redirectTo: "/dashboard" });
});

export const signOutAction = serverAction({ args: [], refuse: refuseQuietly }, async (): Promise<void> => {
  await dashboardSignOut({ redirectTo: "/dashboard/sign-in" });
});

/** Ends every dashboard session of the signed-in user, on every browser, this one too. */
export const signOutEverywhereAction = serverAction({ args: [], refuse: refuseQuietly }, async (): Promise<void> => {
  const user = await currentDashboardUser();
  if (user) await signOutDashboardEverywhere(user.id);
  await dashboardSignOut({ redirectTo: "/dashboard/sign-in" });
});

// ── Accounts ────────────────────────────────────────────────────────────────────────────────────

export const createAccountAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  let developerId: string;
  try {
    const user = await currentDashboardUser();
    if (!user) throw new DashboardError("signed_out");
    ({ developerId } = await createFirstAccount({ dashboardUserId: user.id, name: field(form, "name") }));
  } catch (err) {
    return formFailure(err);
  }
  await chooseAccount(developerId);
  redirect("/dashboard");
});

export const switchAccountAction = serverAction({ args: [actionForm()], refuse: refuseQuietly }, async (form: FormData): Promise<void> => {
  const user = await currentDashboardUser();
  if (!user) redirect("/dashboard/sign-in");
  try {
    const { developerId } = await requireMember({ dashboardUserId: user.id, developerId: field(form, "developer") });
    await chooseAccount(developerId);
  } catch (err) {
    if (!(err instanceof DashboardError)) throw err;
  }
  redirect(dashboardReturnPath(field(form, "back")));
});

export const acceptInviteAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  let developerId: string;
  try {
    const user = await currentDashboardUser();
    if (!user) throw new DashboardError("signed_out");
    ({ developerId } = await acceptInvite({ dashboardUserId: user.id, token: field(form, "token") }));
  } catch (err) {
    return formFailure(err);
  }
  await chooseAccount(developerId);
  redirect("/dashboard");
});

// ── API keys ────────────────────────────────────────────────────────────────────────────────────

export const createKeyAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { key, record } = await createKey({ actorId, developerId: field(form, "developer"), kind: field(form, "kind"), plane: field(form, "plane"), name: field(form, "name") });
    return { ok: "Key created.", secret: { label: `New ${record.plane} ${record.kind} key`, value: key } };
  });
});

export const rotateKeyAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { key, record, oldKeyStopsAt } = await rotateKey({ actorId, developerId: field(form, "developer"), keyId: field(form, "key") });
    return {
      ok: "Key rotated.",
      secret: { label: `New ${record.plane} ${record.kind} key`, value: key, note: `The old key keeps working until ${oldKeyStopsAt.toISOString().replace("T", " ").slice(0, 16)} UTC, then stops. The MCP sessions it minted have ended, and it mints no more: mint them with the new key.` },
    };
  });
});

export const revokeKeyAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await revokeKey({ actorId, developerId: field(form, "developer"), keyId: field(form, "key") });
    return { ok: "Key revoked. It stopped working now." };
  });
});

export const revokeFormerMemberKeysAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { revoked, email } = await revokeFormerMemberKeys({ actorId, developerId: field(form, "developer"), madeBy: field(form, "made_by") });
    return { ok: `${revoked === 1 ? "1 key" : `${revoked} keys`} made by ${email} revoked. ${revoked === 1 ? "It" : "They"} stopped working now.` };
  });
});

// ── Completion-callback secrets ─────────────────────────────────────────────────────────────────

export const rotateCallbackSecretAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { plane, previous } = await rotateDashboardCallbackSecret({ actorId, developerId: field(form, "developer"), plane: field(form, "plane"), overlap: field(form, "overlap") });
    // The new secret is on the page (it can be read again, as over the API); the answer says what changed.
    return {
      ok: previous
        ? `The ${plane} callback secret was rotated. Callbacks carry a signature under each secret until ${previous.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC, then under the new one only.`
        : `The ${plane} callback secret was rotated. The old one stopped signing now: callbacks carry a signature under the new one only.`,
    };
  });
});

// ── Agents ──────────────────────────────────────────────────────────────────────────────────────

export const createAgentAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const agent = await createAgentFromForm(actorId, form);
    return { ok: `Agent ${agent.handle} created. Its sign-in link: ${agent.sign_in_url}` };
  });
});

export const updateAgentAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const agent = await updateAgentFromForm(actorId, form);
    return { ok: `Agent ${agent.handle} saved.` };
  });
});

// ── Approved origins ────────────────────────────────────────────────────────────────────────────

export const addOriginAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const origin = await addDashboardOrigin({ actorId, developerId: field(form, "developer"), origin: field(form, "origin") });
    return { ok: `${origin} approved.` };
  });
});

export const removeOriginAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await removeDashboardOrigin({ actorId, developerId: field(form, "developer"), origin: field(form, "origin") });
    return { ok: "Origin removed." };
  });
});

// ── SSO clients ─────────────────────────────────────────────────────────────────────────────────

export const createSsoClientAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { clientId, clientSecret } = await createSsoClient({ actorId, developerId: field(form, "developer"), plane: field(form, "plane"), method: field(form, "method"), redirectUri: field(form, "redirect_uri").trim() });
    return clientSecret
      ? { ok: `Client ${clientId} created.`, secret: { label: `Client secret of ${clientId}`, value: clientSecret } }
      : { ok: `Public client ${clientId} created.` };
  });
});

export const addSsoCallbackAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await addSsoCallback({ actorId, developerId: field(form, "developer"), clientId: field(form, "client"), redirectUri: field(form, "redirect_uri").trim() });
    return { ok: "Callback added." };
  });
});

export const removeSsoCallbackAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await removeSsoCallback({ actorId, developerId: field(form, "developer"), clientId: field(form, "client"), plane: field(form, "plane"), redirectUri: field(form, "redirect_uri") });
    return { ok: "Callback removed." };
  });
});

// ── Return destinations ─────────────────────────────────────────────────────────────────────────

export const addDestinationAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { url, created } = await addDashboardDestination({ actorId, developerId: field(form, "developer"), handle: field(form, "handle"), plane: field(form, "plane"), url: field(form, "url") });
    return { ok: created ? `${url} added.` : `${url} was already registered.` };
  });
});

export const removeDestinationAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await removeDashboardDestination({ actorId, developerId: field(form, "developer"), handle: field(form, "handle"), plane: field(form, "plane"), url: field(form, "url") });
    return { ok: "Return destination removed." };
  });
});

export const revokeLineAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { last4 } = await revokeDashboardLine({ actorId, developerId: field(form, "developer"), lineId: field(form, "line") });
    return { ok: `The line ending in ${last4} is revoked. Its message links stopped working now.` };
  });
});

export const partnerPhoneFirstAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const on = await setDashboardPartnerPhoneFirst({ actorId, developerId: field(form, "developer"), on: field(form, "phone_first") });
    return { ok: on ? "Linked-account sessions now ask for the phone number first." : "Linked-account sessions now start with the import screen." };
  });
});

// ── Import jobs ─────────────────────────────────────────────────────────────────────────────────

export const cancelImportJobAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { job, wasOpen } = await cancelDashboardImportJob({ actorId, developerId: field(form, "developer"), jobId: field(form, "job") });
    if (!wasOpen) return { ok: `Job ${job.id} had already ended (${job.status}).` };
    return { ok: job.status === "running" ? `Job ${job.id} stops after the users it is importing now; what it imported stays.` : `Job ${job.id} is cancelled.` };
  });
});

// ── Members ─────────────────────────────────────────────────────────────────────────────────────

export const inviteAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const { email } = await inviteMember({ actorId, developerId: field(form, "developer"), email: field(form, "email"), role: field(form, "role") });
    return { ok: `Invitation sent to ${email}.` };
  });
});

export const changeRoleAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await changeMemberRole({ actorId, developerId: field(form, "developer"), memberId: field(form, "member"), role: field(form, "role") });
    return { ok: "Role changed." };
  });
});

export const removeMemberAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    const developerId = field(form, "developer");
    const memberId = field(form, "member");
    await removeMember({ actorId, developerId, memberId });
    // The keys they made keep working until someone revokes them: the page offers it.
    const theirs = formerMembersKeys(await keysOf(developerId)).find((f) => f.dashboardUserId === memberId);
    if (!theirs) return { ok: "Member removed." };
    const n = theirs.prefixes.length;
    return { ok: `Member removed. ${n === 1 ? "A key they made still works" : `${n} keys they made still work`}: revoke ${n === 1 ? "it" : "them"} under “Keys made by former members”.` };
  });
});

export const withdrawInviteAction = serverAction({ args: [formState<DashboardFormState>(), actionForm()], refuse: refused }, async (_prev: DashboardFormState, form: FormData): Promise<DashboardFormState> => {
  return asMember(async (actorId) => {
    await withdrawInvite({ actorId, developerId: field(form, "developer"), inviteId: field(form, "invite") });
    return { ok: "Invitation withdrawn." };
  });
});
