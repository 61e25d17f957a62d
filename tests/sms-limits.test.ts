// The service-wide text-message budget (SMS_PER_HOUR) and the country allow-list (SMS_COUNTRIES):
// a refused number gets a clear reason, and nothing is sent or stored.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";

// Read on first use, in this file's own process.
Object.assign(process.env, { SMS_PER_HOUR: "3", SMS_COUNTRIES: "us, ca" });

describe("text-message limits of the whole service", () => {
  it("send only to the allowed countries", async () => {
    const { sendSignInCode, CODE_MESSAGES, countryServed } = await import("@/lib/auth/phone-codes");
    expect(countryServed("+14155550100")).toBe(true);
    expect(countryServed("+16135550100")).toBe(true);
    expect(countryServed("+447700900123")).toBe(false);
    const before = await (await db()).smsOutbox.count();
    await expect(sendSignInCode({ phone: "+447700900123", plane: "live", phoneScope: "", ip: "10.7.0.1" })).rejects.toMatchObject({
      reason: "country_not_served",
      message: CODE_MESSAGES.country_not_served,
    });
    expect(await (await db()).smsOutbox.count()).toBe(before);
    expect(await (await db()).phoneCode.count()).toBe(0);
  });

  it("stop at SMS_PER_HOUR messages, whoever asks from wherever", async () => {
    const { sendSignInCode } = await import("@/lib/auth/phone-codes");
    const results: string[] = [];
    for (let i = 0; i < 4; i++) {
      results.push(await sendSignInCode({ phone: `+1415777${String(1000 + i)}`, plane: "live", phoneScope: "", ip: `10.7.1.${i + 1}` }).then(() => "sent", (e: { reason: string }) => e.reason));
    }
    expect(results).toEqual(["sent", "sent", "sent", "rate_limited"]);
    // The sandbox's synthetic number sends nothing, so it is outside the budget.
    await expect(sendSignInCode({ phone: "+15555550100", plane: "test", phoneScope: "dev-x", ip: "10.7.2.1" })).resolves.toBeDefined();
  });

  it("refuses an invalid SMS_COUNTRIES at start-up, naming it", async () => {
    const { loadEnv } = await import("@/lib/env");
    expect(() => loadEnv({ DATA_DIR: "memory://", SMS_COUNTRIES: "USA" })).toThrow(/SMS_COUNTRIES/);
    expect(loadEnv({ DATA_DIR: "memory://", SMS_COUNTRIES: "gb" }).SMS_COUNTRIES).toEqual(["GB"]);
  });
});
