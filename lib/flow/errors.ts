// What the flow answers when it cannot go on: FlowError for the flow itself (unknown, ended, expired,
// not this person's, or too many started), StepError for what the person entered on a screen.

export const FLOW_RATE_LIMITED = "Too many sign-ins were started from this network. Try again in a few minutes.";

export class FlowError extends Error {
  constructor(
    /** not_finished: Return before the flow reached its receipt for this person. */
    readonly reason: "not_found" | "expired" | "ended" | "not_finished" | "wrong_plane" | "rate_limited",
    readonly retryAfter?: number,
  ) {
    super(reason === "rate_limited" ? FLOW_RATE_LIMITED : `Flow ${reason.replace("_", " ")}.`);
    this.name = "FlowError";
  }
}

/** A problem with what the person entered, shown next to the field it names. */
export class StepError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "StepError";
  }
}

/** A step already taken (a double submission, another tab): the page only needs to catch up. */
export class StepAlreadyDone extends StepError {
  constructor() {
    super("form", "This step is already done. The page has been brought up to date.");
  }
}

/** What a step's form shows after a submission: a StepError's field and message, or null when all went well. */
export type FormState = { field: string; message: string } | null;
