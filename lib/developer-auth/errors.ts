// The dashboard's one error family: sign-in, accounts, members and the pages' forms. Each reason has
// one message, shown to the person as it is; services throw, the forms show the message.
export const DASHBOARD_MESSAGES = {
  invalid_email: "Enter a valid email address.",
  resend_too_soon: "A code was just sent. You can ask for a new one in a few seconds.",
  rate_limited: "Too many codes were sent. Try again later.",
  send_failed: "We could not send the email just now. Try again in a moment.",
  expired: "This code has expired or was already used. Send a new one.",
  too_many_attempts: "Too many wrong tries. Send a new code.",
  wrong_code: "That code is not right. Check the email and try again.",
  signed_out: "Your session has ended. Sign in again.",
  not_found: "Not found in this account.",
  owner_only: "Only an owner of this account can do this.",
  last_owner: "An account keeps at least one owner. Make someone else an owner first.",
  invalid_name: "Give the account a name of 1 to 100 characters.",
  invite_invalid: "This invitation is not valid: it expired, was withdrawn or was already used.",
  invite_other_address: "This invitation was sent to another address. Sign in with that address to accept it.",
  already_member: "That address is already a member of this account.",
  invalid_input: "Check the form and try again.",
  key_not_rotatable: "This key was already rotated or revoked.",
  sends_limited: "Too many test events and resends this minute. Try again in a minute.",
} as const;
export type DashboardErrorReason = keyof typeof DASHBOARD_MESSAGES;

export class DashboardError extends Error {
  constructor(
    readonly reason: DashboardErrorReason,
    message?: string,
    /** The form field the refusal is about, when it is one. */
    readonly field?: string,
  ) {
    super(message ?? DASHBOARD_MESSAGES[reason]);
    this.name = "DashboardError";
  }
}
