// A software authenticator for tests: a P-256 key per passkey, answers made as an authenticator makes
// them (authenticator data, clientDataJSON, "none" attestation in CBOR, ECDSA signatures), so the
// service's checks run on real bytes. Options in, the JSON @simplewebauthn/browser would post out.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

export interface SoftPasskey {
  id: string;
  privateKey: KeyObject;
  x: Buffer;
  y: Buffer;
  counter: number;
  userHandle: string;
}

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest();

function flags(o: { uv: boolean; be: boolean; bs: boolean; at?: boolean }): number {
  return 0x01 | (o.uv ? 0x04 : 0) | (o.be ? 0x08 : 0) | (o.bs ? 0x10 : 0) | (o.at ? 0x40 : 0);
}

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export interface AnswerOptions {
  origin: string;
  rpId: string;
  uv?: boolean;
  backupEligible?: boolean;
}

/** A new passkey for registration options: the registration response JSON and the passkey to sign with later. */
export function register(options: { challenge: string; user: { id: string } }, o: AnswerOptions): { response: string; passkey: SoftPasskey } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  const credId = randomBytes(16);
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(x)],
      [-3, new Uint8Array(y)],
    ]),
  );
  const idLen = Buffer.alloc(2);
  idLen.writeUInt16BE(credId.length);
  const be = o.backupEligible ?? false;
  const authData = Buffer.concat([
    sha256(o.rpId),
    Buffer.from([flags({ uv: o.uv ?? true, be, bs: be, at: true })]),
    counterBytes(0),
    Buffer.alloc(16),
    idLen,
    credId,
    Buffer.from(cose),
  ]);
  const clientData = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin: o.origin, crossOrigin: false });
  const attestation = isoCBOR.encode(
    new Map<string, unknown>([
      ["fmt", "none"],
      ["attStmt", new Map()],
      ["authData", new Uint8Array(authData)],
    ]) as never,
  );
  const response = {
    id: b64u(credId),
    rawId: b64u(credId),
    type: "public-key",
    clientExtensionResults: {},
    response: { clientDataJSON: b64u(clientData), attestationObject: b64u(attestation), transports: ["internal"] },
  };
  return { response: JSON.stringify(response), passkey: { id: b64u(credId), privateKey, x, y, counter: 0, userHandle: options.user.id } };
}

/** An assertion for authentication options (the counter goes up by one unless `counter` says otherwise). */
export function assert(passkey: SoftPasskey, options: { challenge: string }, o: AnswerOptions & { counter?: number }): string {
  passkey.counter = o.counter ?? passkey.counter + 1;
  const be = o.backupEligible ?? false;
  const authData = Buffer.concat([sha256(o.rpId), Buffer.from([flags({ uv: o.uv ?? true, be, bs: be })]), counterBytes(passkey.counter)]);
  const clientData = JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin: o.origin, crossOrigin: false });
  const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), passkey.privateKey);
  return JSON.stringify({
    id: passkey.id,
    rawId: passkey.id,
    type: "public-key",
    clientExtensionResults: {},
    response: { clientDataJSON: b64u(clientData), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: passkey.userHandle },
  });
}
