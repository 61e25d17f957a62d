// The message service:sso-error carries for what a callback page hands to completeSso: a decline, the
// developer's server's failed exchange, or a thrown error.
import { describe, expect, it } from "vitest";
import { errorMessage, SIGN_IN_CANCELLED } from "../src/sso";

const none = new URLSearchParams();

describe("the error a callback ends with", () => {
  it("a decline on the callback (error=access_denied) is a cancelled sign-in, whatever the result says", () => {
    expect(errorMessage({ error: "access_denied" }, new URLSearchParams("error=access_denied&state=st"))).toBe(SIGN_IN_CANCELLED);
    expect(errorMessage(undefined, new URLSearchParams("error=access_denied&state=st"))).toBe("Sign-in was cancelled.");
    expect(errorMessage({ error: "access_denied" }, none)).toBe("Sign-in was cancelled.");
  });

  it("a failed exchange that names only a code is said in words, with the code", () => {
    expect(errorMessage({ error: "invalid_grant" }, none)).toBe("Sign-in could not be finished (invalid_grant).");
    expect(errorMessage({ error: "exchange_failed" }, none)).toBe("Sign-in could not be finished (exchange_failed).");
  });

  it("a description or message the server gave is used as it is; an Error gives its message", () => {
    expect(errorMessage({ error: "invalid_grant", error_description: "Authorization code was already used." }, none)).toBe("Authorization code was already used.");
    expect(errorMessage({ error: "server_error", message: "Try again in a minute." }, none)).toBe("Try again in a minute.");
    expect(errorMessage(new Error("offline"), none)).toBe("offline");
  });

  it("a result without an error is no error", () => {
    expect(errorMessage({ signedIn: true }, none)).toBeUndefined();
    expect(errorMessage(null, none)).toBeUndefined();
  });
});
