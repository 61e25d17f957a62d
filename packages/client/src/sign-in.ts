// The hosted sign-in link: the agent's sign-in address with its query parameters.
import { ServiceError } from "./errors.js";

/** A connector a sign-in link may name. */
export type SignInConnector = "gmail" | "calendar" | "drive" | "notion" | "sheets";

/** What the person must connect or import first: each entry must be met; an inner array (or `a|b`) is met by any one of its names. */
export type RequiredEntries = ReadonlyArray<string | readonly string[]>;

/** The parts of a hosted sign-in link. */
export interface SignInUrlOptions {
  /** The agent's sign-in address, its `sign_in_url` (`{SIGN_IN_URL}/<sign-in name>`), sent unchanged. */
  signInUrl: string;
  /** A registered return destination. Keep it a constant of your app; never build it from the request. */
  returnTo?: string;
  /** Returned unchanged with the code (up to 2,048 characters). */
  state?: string;
  /** The name the hosted pages show for the app (up to 80 characters). */
  displayName?: string;
  /** The plane of the flow: a `pk_test_…` key runs it on the test plane. */
  publishableKey?: string;
  /** Apps the link offers; one app opens on that app marked Required. */
  connectors?: readonly SignInConnector[];
  /** What the person must connect or import first (`[["gmail", "outlook"], "chatgpt"]`). */
  required?: RequiredEntries;
}

function invalid(message: string): ServiceError {
  return new ServiceError({ code: "INVALID_INPUT", type: "client", message });
}

/** The `required` parameter's value: entries separated by commas, alternatives by `|`. */
export function requiredParam(required: RequiredEntries): string {
  return required.map((entry) => (typeof entry === "string" ? entry : entry.join("|"))).join(",");
}

/**
 * Builds a hosted sign-in link. Finishing the flow sends the browser to `returnTo` with `code` and
 * `state` (or `error=access_denied` and `state`); exchange the code on your server.
 */
export function buildSignInUrl(options: SignInUrlOptions): string {
  let url: URL;
  try {
    url = new URL(options.signInUrl);
  } catch {
    throw invalid("signInUrl must be the agent's absolute sign_in_url.");
  }
  if (options.returnTo !== undefined) {
    try {
      new URL(options.returnTo);
    } catch {
      throw invalid("returnTo must be an absolute URL or an app link (com.example.app://callback).");
    }
    url.searchParams.set("return_to", options.returnTo);
  }
  if (options.state !== undefined) {
    if (options.state.length > 2048) throw invalid("state is at most 2,048 characters.");
    url.searchParams.set("state", options.state);
  }
  if (options.displayName !== undefined) {
    if (options.displayName.length > 80) throw invalid("displayName is at most 80 characters.");
    url.searchParams.set("display_name", options.displayName);
  }
  if (options.connectors?.length) url.searchParams.set("connectors", [...new Set(options.connectors)].join(","));
  if (options.required?.length) url.searchParams.set("required", requiredParam(options.required));
  if (options.publishableKey !== undefined) {
    if (!/^pk_/.test(options.publishableKey)) throw invalid("publishableKey must be a publishable key (pk_… or pk_test_…), never a secret key.");
    url.searchParams.set("publishable_key", options.publishableKey);
  }
  return url.toString();
}
