// The npm package's module entry: importing it where there is no DOM (server rendering, Node) works and
// changes nothing; defining the element there is a no-op; configure() takes only an http(s) address.
import { describe, expect, it } from "vitest";

describe("@profile-service/browser as a module", () => {
  it("imports without a DOM, sets no global and defines nothing", async () => {
    expect(typeof window).toBe("undefined");
    const before = Object.keys(globalThis).sort();
    const mod = await import("../src/index");
    expect(Object.keys(globalThis).sort()).toEqual(before);
    expect(mod.defineServiceSsoButton()).toBe(false);
    expect(Object.keys(mod).sort()).toEqual(
      [
        "NO_SERVICE_ADDRESS",
        "POPUP_BLOCKED",
        "POPUP_CLOSED",
        "RESULT_MESSAGE",
        "SIGN_IN_CANCELLED",
        "SSO_BUTTON_TAG",
        "SSO_EVENTS",
        "completeSso",
        "configure",
        "defineServiceSsoButton",
        "getSsoNonce",
        "getSsoPkce",
        "handleSsoCallback",
        "serviceBaseUrl",
        "signInWithPopup",
      ].sort(),
    );
    expect(mod.SSO_BUTTON_TAG).toBe("service-sso-button");
    expect(mod.NO_SERVICE_ADDRESS).toBe("The service's address is not set: call configure({ baseUrl }) or pass baseUrl.");
  });

  it("configure() keeps the service's address without a trailing slash, and refuses anything but http(s)", async () => {
    const { configure, serviceBaseUrl } = await import("../src/index");
    configure({ baseUrl: "https://profiles.example/" });
    expect(serviceBaseUrl()).toBe("https://profiles.example");
    configure({ baseUrl: "https://example.org/profiles/" });
    expect(serviceBaseUrl()).toBe("https://example.org/profiles");
    expect(() => configure({ baseUrl: "javascript:alert(1)" })).toThrow(TypeError);
    expect(() => configure({ baseUrl: "profiles.example" })).toThrow(TypeError);
    expect(serviceBaseUrl()).toBe("https://example.org/profiles");
  });
});
