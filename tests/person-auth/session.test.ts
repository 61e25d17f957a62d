// The person's session: next-auth with the JWT strategy. A sealed ticket, made once a code is
// verified, names the user for one minute; a session cookie names the user to every page.
import { NextRequest } from "next/server.js";
import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { env } from "@/lib/env";
import { handlers, openTicket, sessionTicket } from "@/lib/person-auth/session";
import { createUser } from "@/lib/users/users";

afterEach(() => resetClockForTests());

describe("session tickets", () => {
  it("name the user for one minute and cannot be forged", () => {
    const ticket = sessionTicket("user-1");
    expect(openTicket(ticket)).toBe("user-1");
    expect(openTicket(ticket.slice(0, -2) + "xx")).toBeNull();
    expect(openTicket("user-1")).toBeNull();
    expect(openTicket(undefined)).toBeNull();
    advanceClockForTests(61_000);
    expect(openTicket(ticket)).toBeNull();
  });
});

describe("next-auth", () => {
  const session = (cookie?: string) => handlers.GET(new NextRequest("http://localhost:3000/api/auth/session", { headers: cookie ? { cookie } : {} }));

  it("answers no session without a cookie, and the user id with one naming someone who is there", async () => {
    expect(await (await session()).json()).toBeNull();
    const person = await createUser({ plane: "live" });
    const token = await encode({ token: { sub: person.id }, secret: env().AUTH_SECRET, salt: "authjs.session-token" });
    const res = await session(`authjs.session-token=${token}`);
    expect((await res.json()).user).toEqual({ id: person.id });
    const nobody = await encode({ token: { sub: "user-42" }, secret: env().AUTH_SECRET, salt: "authjs.session-token" });
    expect(await (await session(`authjs.session-token=${nobody}`)).json()).toBeNull();
  });

  it("offers the phone-code provider only", async () => {
    const res = await handlers.GET(new NextRequest("http://localhost:3000/api/auth/providers"));
    expect(Object.keys(await res.json())).toEqual(["phone-code"]);
  });
});
