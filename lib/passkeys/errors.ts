// What a passkey step answers when it cannot go on: shown beside the passkey button (field "passkey").

export class PasskeyError extends Error {
  constructor(
    readonly code: "refused" | "rate_limited" | "not_found" | "invalid",
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "PasskeyError";
  }
}

export const PASSKEY_MESSAGES = {
  refused: "That passkey could not sign you in. Try again, or use your number.",
  rateLimited: "Too many passkey attempts. Try again in a few minutes, or use your number.",
  notFound: "That passkey is not on your account any more.",
  invalid: "The browser's answer was not a passkey. Try again.",
  name: "Give the passkey a name of 1 to 60 characters.",
} as const;
