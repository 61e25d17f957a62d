// Phone numbers are kept only as a keyed hash plus the last four digits; the raw number is never stored.
import { keyedHash } from "../platform/crypto";

const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(phone: string): boolean {
  return E164.test(phone);
}

export function phoneDigest(e164: string): { phoneHash: string; phoneLast4: string } {
  if (!isE164(e164)) throw new Error("phone must be in E.164 form");
  return { phoneHash: keyedHash("phone", e164), phoneLast4: e164.slice(-4) };
}
