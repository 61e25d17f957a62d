// The five events of one attempt: start, open, authenticated or error, close — in that order, each once.
import { describe, expect, it } from "vitest";
import { attemptEvents, SSO_EVENTS, type SsoEventDetail } from "../src/events";

function recorder() {
  const target = new EventTarget();
  const dispatched: string[] = [];
  for (const name of Object.values(SSO_EVENTS)) target.addEventListener(name, (e) => dispatched.push(`${e.type}:${JSON.stringify((e as CustomEvent<SsoEventDetail>).detail)}`));
  const handed: string[] = [];
  const events = attemptEvents({ target, state: "st", onEvent: (name) => handed.push(name) });
  return { events, dispatched, handed };
}

describe("sign-in events", () => {
  it("go start, open, authenticated (with the result), close — as CustomEvents and to onEvent", () => {
    const { events, dispatched, handed } = recorder();
    events.emit(SSO_EVENTS.start);
    events.emit(SSO_EVENTS.open, { mode: "popup" });
    events.emit(SSO_EVENTS.authenticated, { result: { user: "u1" } });
    events.emit(SSO_EVENTS.close);
    expect(handed).toEqual(["service:sso-start", "service:sso-open", "service:sso-authenticated", "service:sso-close"]);
    expect(dispatched).toEqual([
      'service:sso-start:{"state":"st"}',
      'service:sso-open:{"state":"st","mode":"popup"}',
      'service:sso-authenticated:{"state":"st","result":{"user":"u1"}}',
      'service:sso-close:{"state":"st"}',
    ]);
  });

  it("an error carries a message and is followed by close; nothing comes after close", () => {
    const { events, handed, dispatched } = recorder();
    events.emit(SSO_EVENTS.start);
    events.fail("The sign-in window was closed before sign-in finished.");
    events.emit(SSO_EVENTS.authenticated, { result: 1 });
    events.fail("again");
    expect(handed).toEqual(["service:sso-start", "service:sso-error", "service:sso-close"]);
    expect(dispatched[1]).toBe('service:sso-error:{"state":"st","message":"The sign-in window was closed before sign-in finished."}');
    expect(events.closed).toBe(true);
  });

  it("an outcome is sent once, and an earlier step is never sent after a later one", () => {
    const { events, handed } = recorder();
    events.emit(SSO_EVENTS.start);
    events.emit(SSO_EVENTS.open);
    events.emit(SSO_EVENTS.authenticated, { result: 1 });
    events.emit(SSO_EVENTS.error, { message: "late" });
    events.emit(SSO_EVENTS.open);
    events.emit(SSO_EVENTS.close);
    expect(handed).toEqual(["service:sso-start", "service:sso-open", "service:sso-authenticated", "service:sso-close"]);
  });

  it("a throwing onEvent does not stop the events", () => {
    const target = new EventTarget();
    const seen: string[] = [];
    target.addEventListener(SSO_EVENTS.close, () => seen.push("close"));
    const events = attemptEvents({
      target,
      onEvent: () => {
        throw new Error("page bug");
      },
    });
    const errors: unknown[] = [];
    const onUncaught = (e: unknown) => errors.push(e);
    process.on("uncaughtException", onUncaught);
    events.emit(SSO_EVENTS.start);
    events.emit(SSO_EVENTS.close);
    expect(seen).toEqual(["close"]);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        process.off("uncaughtException", onUncaught);
        resolve();
      }, 10),
    );
  });
});
