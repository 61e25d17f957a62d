// The service's text-message budget (SMS_PER_HOUR for each destination country, of which one network
// may spend SMS_PER_NETWORK_PER_HOUR) and the country allow-list (SMS_COUNTRIES): a refused number
// gets a clear reason, and nothing is sent or stored.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";

// Read on first use, in this file's own process.
Object.assign(process.env, { SMS_PER_HOUR: "3", SMS_PER_NETWORK_PER_HOUR: "2", SMS_COUNTRIES: "us, ca, au" });

describe("text-message limits of the whole service", () => {
  it("send only to the allowed countries", async () => {
    const { sendSignInCode, CODE_MESSAGES, countryServed } = await import("@/lib/person-auth/phone-codes");
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

  it("stop at SMS_PER_HOUR messages to one country, whoever asks from wherever", async () => {
    const { sendSignInCode } = await import("@/lib/person-auth/phone-codes");
    const results: string[] = [];
    for (let i = 0; i < 4; i++) {
      results.push(
        await sendSignInCode({ phone: `+1415777${String(1000 + i)}`, plane: "live", phoneScope: "", ip: `10.7.1.${i + 1}` }).then(
          () => "sent",
          (e: { reason: string }) => e.reason,
        ),
      );
    }
    expect(results).toEqual(["sent", "sent", "sent", "rate_limited"]);
    // The sandbox's synthetic number sends nothing, so it is outside the budget.
    await expect(sendSignInCode({ phone: "+15555550100", plane: "test", phoneScope: "dev-x", ip: "10.7.2.1" })).resolves.toBeDefined();
  });

  it("count SMS_PER_HOUR per destination country: with the United States' spent, Canada is still served", async () => {
    const { sendSignInCode } = await import("@/lib/person-auth/phone-codes");
    await expect(sendSignInCode({ phone: "+14155550177", plane: "live", phoneScope: "", ip: "10.7.3.1" })).rejects.toMatchObject({ reason: "rate_limited" });
    await expect(sendSignInCode({ phone: "+16135550177", plane: "live", phoneScope: "", ip: "10.7.3.2" })).resolves.toBeDefined();
  });

  it("let one IPv6 /48 spend at most SMS_PER_NETWORK_PER_HOUR, whichever of its /56s asks, leaving the rest for others", async () => {
    const { sendSignInCode, CODE_MESSAGES } = await import("@/lib/person-auth/phone-codes");
    const results: string[] = [];
    for (const [i, site] of ["2001:db8:4800:0", "2001:db8:4800:100", "2001:db8:4800:ff00"].entries()) {
      results.push(
        await sendSignInCode({ phone: `+6141234567${i}`, plane: "live", phoneScope: "", ip: `${site}::1` }).then(
          () => "sent",
          (e: Error) => e.message,
        ),
      );
    }
    expect(results).toEqual(["sent", "sent", CODE_MESSAGES.rate_limited]);
    // Another network still gets Australia's last message of the hour.
    await expect(sendSignInCode({ phone: "+61412345679", plane: "live", phoneScope: "", ip: "2001:db8:4801::1" })).resolves.toBeDefined();
  });

  it("count a requester by its IPv6 /56 and a network by its /48; IPv4 by its address", async () => {
    const { ipLimitKey } = await import("@/lib/http/request");
    const { SMS_IPV6_PREFIX_BITS } = await import("@/lib/person-auth/phone-codes");
    expect(ipLimitKey("2001:db8:abcd:12ff:1:2:3:4", SMS_IPV6_PREFIX_BITS.requester)).toBe("2001:db8:abcd:1200::/56");
    expect(ipLimitKey("2001:db8:abcd:1201::9", SMS_IPV6_PREFIX_BITS.requester)).toBe("2001:db8:abcd:1200::/56");
    expect(ipLimitKey("2001:db8:abcd:12ff::1", SMS_IPV6_PREFIX_BITS.network)).toBe("2001:db8:abcd::/48");
    expect(ipLimitKey("203.0.113.7", SMS_IPV6_PREFIX_BITS.network)).toBe("203.0.113.7");
    expect(ipLimitKey("::ffff:203.0.113.7", SMS_IPV6_PREFIX_BITS.network)).toBe("203.0.113.7");
  });

  it("refuses an invalid SMS_COUNTRIES at start-up, naming it", async () => {
    const { loadEnv } = await import("@/lib/env");
    expect(() => loadEnv({ DATA_DIR: "memory://", SMS_COUNTRIES: "USA" })).toThrow(/SMS_COUNTRIES/);
    expect(loadEnv({ DATA_DIR: "memory://", SMS_COUNTRIES: "gb" }).SMS_COUNTRIES).toEqual(["GB"]);
  });
});
