// What a browser sends back from navigator.credentials (as @simplewebauthn/browser serialises it),
// checked before anything reads it: base64url fields of bounded length, the type "public-key".
import { z } from "zod";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { PASSKEY_MESSAGES, PasskeyError } from "./errors";

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/);
const TRANSPORTS = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] as const;

const common = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

const registrationSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(16000),
    authenticatorData: b64url(8000).optional(),
    transports: z.array(z.enum(TRANSPORTS)).max(7).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4000).optional(),
  }),
});

const authenticationSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(8000),
    signature: b64url(2000),
    userHandle: b64url(200).optional(),
  }),
});

/** A passkey's name as the person gives it: trimmed, 1 to 60 characters. */
export const passkeyName = z.string().trim().min(1).max(60);

function parsed<T>(schema: z.ZodType<T>, text: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PasskeyError("invalid", PASSKEY_MESSAGES.invalid);
  }
  const res = schema.safeParse(json);
  if (!res.success) throw new PasskeyError("invalid", PASSKEY_MESSAGES.invalid);
  return res.data;
}

export function registrationResponse(text: string): RegistrationResponseJSON {
  return parsed(registrationSchema, text);
}

export function authenticationResponse(text: string): AuthenticationResponseJSON {
  return parsed(authenticationSchema, text);
}
