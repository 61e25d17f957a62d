// The account pages' one error family: what a person's own action on their account refuses.
export type AccountErrorCode = "not_found" | "invalid";

/** Thrown by lib/account when an action names something that is not the signed-in person's, or bad input. */
export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
  }
}
