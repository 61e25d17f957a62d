// Text-back sign-in: message lines (POST|GET|DELETE /v1/auth/sign-in/message-lines), the plain URLs sent
// from them (POST /v1/auth/sign-in/message-url) and sender recognition (POST
// /v1/auth/sign-in/recognize-phone). Lines never show or store a raw number; every lookup stays within
// one developer, agent and key plane; recognition alone grants nothing.
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import * as linesRoute from "@/app/v1/auth/sign-in/message-lines/route";
import { POST as messageUrlRoute } from "@/app/v1/auth/sign-in/message-url/route";
import { POST as recognizeRoute } from "@/app/v1/auth/sign-in/recognize-phone/route";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import { GET as signInHostReconnect } from "@/app/(hosted)/sign-in/[agent]/reconnect/route";
import { createAgent, signInUrl } from "@/lib/agents/agents";
import { verifyAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { findFlow } from "@/lib/flow/store";
import { MESSAGES } from "@/lib/http/errors";
import { registerReturnDestination } from "@/lib/sign-in/destinations";
import { LINE_MESSAGES, phoneFrom } from "@/lib/sign-in/message-lines";
import { FALLBACK_REASONS, MESSAGE_URL_MESSAGES } from "@/lib/sign-in/message-url";
import { MESSAGE_LINK_TTL_SECONDS } from "@/lib/sign-in/message-link";
import { readCandidates, RECOGNITIONS_PER_DEVELOPER_PER_MINUTE, RECOGNITIONS_PER_MINUTE } from "@/lib/sign-in/recognize";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { approveAgent, revokeApproval } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

const LINE = "+14155550100";
const LINE_DIGITS = "4155550100";
const DONE = "https://app.example.com/done";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

const headers = (tenant: Tenant, key = tenant.keys.sk, agent = tenant.agent.handle) => ({ "x-api-key": key, "x-agent": agent });
const registerLine = (body: Record<string, unknown>, h = headers(t)) => call(linesRoute.POST, { headers: h, body });
const listLines = (h = headers(t)) => call(linesRoute.GET, { headers: h });
const revokeLine = (body: Record<string, unknown>, h = headers(t)) => call(linesRoute.DELETE, { headers: h, body });
const messageUrl = (body: Record<string, unknown>, h = headers(t)) => call(messageUrlRoute, { headers: h, body });
const recognize = (candidates: string[], h = headers(t)) => call(recognizeRoute, { headers: h, body: { candidates } });

async function lineRows(developerId = t.developer.id) {
  return (await db()).messageLine.findMany({ where: { developerId } });
}

/** A fresh possible US number (+1 415 2xx xxxx): live users share one namespace across tests. */
function randomUsPhone(): string {
  return `+14152${String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, "0")}`;
}

describe("POST|GET|DELETE /v1/auth/sign-in/message-lines", () => {
  it("registers a line (201) showing only the last four digits, and keeps only a keyed hash of the number", async () => {
    const res = await registerLine({ phone: LINE, label: "Support line", metadata: { region: "us-west", tier: 2, tags: ["a", "b"] } });
    expect(res.status).toBe(201);
    expect(res.body.line).toEqual({
      id: expect.any(String),
      channel: "sms",
      phoneLast4: "0100",
      label: "Support line",
      status: "active",
      metadata: { region: "us-west", tier: 2, tags: ["a", "b"] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const listed = await listLines();
    expect(listed.status).toBe(200);
    expect(listed.body.lines).toEqual([res.body.line]);
    for (const json of [JSON.stringify(res.body), JSON.stringify(listed.body)]) {
      expect(json).not.toContain(LINE_DIGITS);
      expect(json).not.toContain("415555");
    }
    const rows = await lineRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ agentId: t.agent.id, plane: "live", channel: "sms", phoneLast4: "0100" });
    expect(rows[0]!.phoneHash).not.toContain(LINE_DIGITS);
    expect(JSON.stringify(rows[0])).not.toContain(LINE_DIGITS);
    const raw = await (await db()).$queryRawUnsafe<unknown[]>(`SELECT * FROM sign_in_message_lines WHERE developer_id = $1::uuid`, t.developer.id);
    expect(JSON.stringify(raw)).not.toContain(LINE_DIGITS);
  });

  it("registers the same number again (200): the same line, any format, label and metadata replaced when given", async () => {
    const first = await registerLine({ phone: LINE, label: "One", metadata: { a: 1 } });
    const again = await registerLine({ messageLinePhone: "+1 (415) 555-0100", label: "Two" });
    expect(again.status).toBe(200);
    expect(again.body.line).toMatchObject({ id: first.body.line.id, label: "Two", metadata: { a: 1 }, status: "active" });
    const third = await registerLine({ phone: "tel:4155550100", metadata: { b: "x" } });
    expect(third.body.line).toMatchObject({ id: first.body.line.id, label: "Two", metadata: { b: "x" } });
    expect(await lineRows()).toHaveLength(1);
  });

  it("keeps a line per channel: sms by default, imessage (any case) on its own", async () => {
    const sms = await registerLine({ phone: LINE });
    const imessage = await registerLine({ phone: LINE, channel: "iMessage" });
    expect(imessage.status).toBe(201);
    expect(imessage.body.line.channel).toBe("imessage");
    expect(imessage.body.line.id).not.toBe(sms.body.line.id);
    expect((await listLines()).body.lines.map((l: { channel: string }) => l.channel)).toEqual(["sms", "imessage"]);
    const bad = await registerLine({ phone: LINE, channel: "whatsapp" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });

  it("refuses a missing or unparseable number with 400 invalid_phone, writing nothing", async () => {
    const missing = await registerLine({ label: "x" });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ code: "invalid_phone", message: LINE_MESSAGES.phoneRequired, field: "phone" });
    for (const phone of ["not a phone", "+1415", "", "+1 415 555 0100 ext. 3", "12", "++14155550100"]) {
      const res = await registerLine({ phone });
      expect(res.status, phone).toBe(400);
      expect(res.body.error, phone).toEqual({ code: "invalid_phone", message: LINE_MESSAGES.invalidPhone, field: "phone" });
    }
    expect((await registerLine({ messageLinePhone: "nope" })).body.error.field).toBe("messageLinePhone");
    expect(await lineRows()).toHaveLength(0);
  });

  it("refuses phone-like metadata with 400 invalid_metadata naming the field, writing nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ phone: "on file" }, "metadata.phone"],
      [{ phone_number: "x" }, "metadata.phone_number"],
      [{ phoneNumber: "x" }, "metadata.phoneNumber"],
      [{ agentPhone: "x" }, "metadata.agentPhone"],
      [{ msisdn: "x" }, "metadata.msisdn"],
      [{ mobile: "x" }, "metadata.mobile"],
      [{ tel: "x" }, "metadata.tel"],
      [{ TEL_NO: "x" }, "metadata.TEL_NO"],
      [{ contact: { Phone: "x" } }, "metadata.contact.Phone"],
      [{ note: "+14155550123" }, "metadata.note"],
      [{ note: "+44 20 7946 0958" }, "metadata.note"],
      [{ note: "+1-415-555-0123" }, "metadata.note"],
      [{ note: "tel:+14155550123" }, "metadata.note"],
      [{ ref: "4155550123" }, "metadata.ref"],
      [{ ref: "14155550123" }, "metadata.ref"],
      [{ ref: "415-555-0123" }, "metadata.ref"],
      [{ ref: "(415) 555-0123" }, "metadata.ref"],
      [{ ref: "415.555.0123" }, "metadata.ref"],
      [{ ref: 4155550123 }, "metadata.ref"],
      [{ note: "call +1 415 555 0123 after five" }, "metadata.note"],
      [{ note: "call (415) 555-0123" }, "metadata.note"],
      [{ team: [{ name: "a" }, { numbers: ["x", "+14155550123"] }] }, "metadata.team.1.numbers.1"],
      [{ deep: { deeper: [["4155550123"]] } }, "metadata.deep.deeper.0.0"],
      [{ "+14155550123": "vip" }, "metadata.+14155550123"],
    ];
    for (const [metadata, field] of cases) {
      const res = await registerLine({ phone: LINE, metadata });
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect(res.body.error, JSON.stringify(metadata)).toEqual({ code: "invalid_metadata", message: LINE_MESSAGES.phoneInMetadata, field });
    }
    expect(await lineRows()).toHaveLength(0);
    // A line already registered keeps its metadata when a phone-like update is refused.
    await registerLine({ phone: LINE, metadata: { ok: true } });
    expect((await registerLine({ phone: LINE, metadata: { phone: "x" } })).status).toBe(400);
    expect((await lineRows())[0]!.metadata).toEqual({ ok: true });
  });

  it("accepts ordinary operator metadata, and bounds its size and keys", async () => {
    const metadata = {
      region: "us-west",
      zip: "94107",
      orderedAt: "2026-01-02T03:04:05Z",
      epoch: 1732406400,
      iphoneModel: "15",
      count: 12,
      ids: ["abc-123"],
      nested: { ok: null },
    };
    expect((await registerLine({ phone: LINE, metadata })).body.line.metadata).toEqual(metadata);
    const big = await registerLine({ phone: "+14155550101", metadata: { blob: "x".repeat(5000) } });
    expect(big.status).toBe(400);
    expect(big.body.error).toEqual({ code: "invalid_metadata", message: LINE_MESSAGES.metadataTooLarge, field: "metadata" });
    const deep = await registerLine({ phone: "+14155550101", metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } });
    expect(deep.body.error.code).toBe("invalid_metadata");
    const proto = await call(linesRoute.POST, {
      headers: { ...headers(t), "content-type": "application/json" },
      rawBody: `{"phone":"+14155550101","metadata":{"constructor":{"x":1}}}`,
    });
    expect(proto.body.error.code).toBe("invalid_metadata");
    expect((await registerLine({ phone: "+14155550101", metadata: ["a"] })).body.error.code).toBe("invalid_request");
    const label = await registerLine({ phone: "+14155550101", label: "Line +1 415 555 0101" });
    expect(label.body.error).toEqual({ code: "invalid_request", message: LINE_MESSAGES.phoneInLabel, field: "label" });
    expect(await lineRows()).toHaveLength(1);
  });

  it("revokes a line (DELETE), which then no longer lists or serves message URLs until registered again", async () => {
    const line = (await registerLine({ phone: LINE, label: "L" })).body.line;
    expect((await messageUrl({ agentPhone: LINE })).status).toBe(200);
    const res = await revokeLine({ phone: "(415) 555-0100" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, lines: [{ ...line, status: "revoked", updatedAt: expect.any(String) }] });
    expect((await listLines()).body.lines).toEqual([]);
    const refused = await messageUrl({ agentPhone: LINE });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: "message_line_not_registered", message: MESSAGE_URL_MESSAGES.lineNotRegistered, field: "agentPhone" });
    const again = await revokeLine({ phone: LINE });
    expect(again.status).toBe(404);
    expect(again.body.error).toEqual({ code: "not_found", message: LINE_MESSAGES.notFound });
    const back = await registerLine({ phone: LINE });
    expect(back.status).toBe(200);
    expect(back.body.line).toMatchObject({ id: line.id, status: "active", label: "L" });
    expect((await messageUrl({ agentPhone: LINE })).status).toBe(200);
  });

  it("revokes on the channel named, or on every channel", async () => {
    await registerLine({ phone: LINE });
    await registerLine({ phone: LINE, channel: "imessage" });
    const one = await revokeLine({ messageLinePhone: LINE, channel: "imessage" });
    expect(one.body.lines.map((l: { channel: string }) => l.channel)).toEqual(["imessage"]);
    await registerLine({ phone: LINE, channel: "imessage" });
    const both = await revokeLine({ phone: LINE });
    expect(both.body.lines.map((l: { channel: string }) => l.channel).sort()).toEqual(["imessage", "sms"]);
    expect((await revokeLine({ phone: "nope" })).body.error).toEqual({ code: "invalid_phone", message: LINE_MESSAGES.invalidPhone, field: "phone" });
  });

  it("keeps lines to their plane, agent and developer", async () => {
    await registerLine({ phone: LINE });
    const testKey = headers(t, t.keys.skTest);
    expect((await listLines(testKey)).body.lines).toEqual([]);
    expect((await revokeLine({ phone: LINE }, testKey)).status).toBe(404);
    expect((await messageUrl({ agentPhone: LINE }, testKey)).body.error.code).toBe("message_line_not_registered");

    const second = await createAgent({ developerId: t.developer.id, handle: "second-agent" });
    const secondHeaders = headers(t, t.keys.sk, second.handle);
    expect((await listLines(secondHeaders)).body.lines).toEqual([]);
    expect((await revokeLine({ phone: LINE }, secondHeaders)).status).toBe(404);
    expect((await messageUrl({ agentPhone: LINE }, secondHeaders)).body.error.code).toBe("message_line_not_registered");

    const other = await createTenant("other-dev", "other-agent");
    expect((await listLines(headers(other))).body.lines).toEqual([]);
    expect((await revokeLine({ phone: LINE }, headers(other))).status).toBe(404);
    expect((await messageUrl({ agentPhone: LINE }, headers(other))).body.error.code).toBe("message_line_not_registered");
    // The other developer registers the same number for itself: a line of its own; ours stays active.
    expect((await registerLine({ phone: LINE }, headers(other))).status).toBe(201);
    expect((await listLines()).body.lines).toHaveLength(1);
    expect((await listLines(testKey)).body.lines).toEqual([]);
    const testLine = await registerLine({ phone: LINE }, testKey);
    expect(testLine.status).toBe(201);
    expect((await listLines(testKey)).body.lines.map((l: { id: string }) => l.id)).toEqual([testLine.body.line.id]);
  });
});

describe("POST /v1/auth/sign-in/message-url", () => {
  beforeEach(async () => {
    await registerLine({ phone: LINE });
    await registerReturnDestination({ developerId: t.developer.id, agentId: t.agent.id, plane: "live", url: DONE });
  });

  it("answers a plain sign-in URL carrying the message handoff, never a code", async () => {
    const res = await messageUrl({
      reason: "signin",
      agentPhone: "+1 (415) 555-0100",
      messageBody: "Tap to sign in & continue",
      messageCompleteUrl: `${DONE}#ignored`,
      journeyId: "journey-1",
      subject: { key: "s", externalId: "ext-1", senderId: "sender-1" },
      thread: { key: "t", spaceId: "space", messageId: "m-1" },
      connectors: ["gmail"],
      required: "gmail email",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: "plain", url: expect.any(String), reason: "signin", fallbackReason: FALLBACK_REASONS.missing, idempotencyKey: null });
    expect(FALLBACK_REASONS.missing).toBe("sender_proof_missing");
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(signInUrl(t.agent.signInName));
    expect([...url.searchParams.keys()]).toEqual(["delivery", "message_line_phone", "message_body", "message_complete_url", "journey", "exp", "sig"]);
    // Signed by the service and good for 24 hours.
    expect(Number(url.searchParams.get("exp")) - Date.now() / 1000).toBeGreaterThan(MESSAGE_LINK_TTL_SECONDS - 60);
    expect(url.searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("delivery")).toBe("message");
    expect(url.searchParams.get("message_line_phone")).toBe(LINE);
    expect(url.searchParams.get("message_body")).toBe("Tap to sign in & continue");
    expect(url.searchParams.get("message_complete_url")).toBe(DONE);
    expect(url.searchParams.get("journey")).toBe("journey-1");
  });

  it("answers a reconnect URL: /reconnect with the affected connectors; sender proof is not yet verified", async () => {
    await registerLine({ phone: LINE, channel: "imessage" });
    const res = await messageUrl({
      reason: "reconnect",
      channel: "imessage",
      messageLinePhone: LINE,
      connectors: ["gmail", "calendar", "gmail"],
      messageSenderProof: "signed-proof",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: "plain", reason: "reconnect", fallbackReason: FALLBACK_REASONS.unsupported, idempotencyKey: null });
    expect(FALLBACK_REASONS.unsupported).toBe("sender_proof_unsupported");
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${signInUrl(t.agent.signInName)}/reconnect`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      delivery: "message",
      message_line_phone: LINE,
      channel: "imessage",
      connectors: "gmail,calendar",
      exp: expect.any(String),
      sig: expect.any(String),
    });
    // Minimal request: sign-in by default, sms, no optional parameters.
    const plain = await messageUrl({ agentPhone: LINE });
    expect(Object.fromEntries(new URL(plain.body.url).searchParams)).toEqual({ delivery: "message", message_line_phone: LINE, exp: expect.any(String), sig: expect.any(String) });
    expect(plain.body.reason).toBe("signin");
  });

  it("opens on the sign-in host only as the service signed it, until it expires", async () => {
    const res = await messageUrl({ agentPhone: LINE, journeyId: "j-1", messageCompleteUrl: DONE });
    const url = new URL(res.body.url);
    const forged = [
      (u: URL) => u.searchParams.set("journey", "someone-else"),
      (u: URL) => u.searchParams.set("message_body", "write this into my profile"),
      (u: URL) => u.searchParams.delete("sig"),
      (u: URL) => u.searchParams.set("exp", String(Number(u.searchParams.get("exp")) + 3600)),
      (u: URL) => u.searchParams.set("sig", "A".repeat(43)),
    ];
    for (const change of forged) {
      const u = new URL(url);
      change(u);
      const name = u.pathname.split("/")[2]!;
      const answer = await signInHost(new Request(u), { params: Promise.resolve({ agent: name }) });
      expect(answer.status).toBe(400);
    }
    expect(await openOnHost(url.toString())).not.toBeNull();
    advanceClockForTests((MESSAGE_LINK_TTL_SECONDS + 1) * 1000);
    const name = url.pathname.split("/")[2]!;
    expect((await signInHost(new Request(url), { params: Promise.resolve({ agent: name }) })).status).toBe(400);
    resetClockForTests();
  });

  it("opens on the sign-in host as a text-back flow on the line, in the key's plane", async () => {
    const res = await messageUrl({ agentPhone: LINE, messageBody: "hi", journeyId: "j-9", messageCompleteUrl: DONE });
    const live = await openOnHost(res.body.url);
    const line = (await listLines()).body.lines[0];
    expect(live?.plane).toBe("live");
    expect(live?.wayIn === "sign_in_link" ? live.request.message : null).toEqual({
      line_id: line.id,
      channel: "sms",
      complete_url: DONE,
      journey: "j-9",
      body: "hi",
      link_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const testHeaders = headers(t, t.keys.skTest);
    const testLine = (await registerLine({ phone: LINE }, testHeaders)).body.line;
    const testRes = await messageUrl({ agentPhone: LINE, reason: "reconnect", connectors: ["notion"] }, testHeaders);
    // The signature names the plane: no publishable key rides in the link.
    expect(new URL(testRes.body.url).searchParams.get("publishable_key")).toBeNull();
    const test = await openOnHost(testRes.body.url);
    expect(test?.plane).toBe("test");
    expect(test).toMatchObject({ wayIn: "sign_in_link", request: { reconnect: true, connectors: ["notion"], message: { line_id: testLine.id } } });
  });

  it("needs an active line of the agent for the channel: 400 invalid_phone or message_line_not_registered", async () => {
    const none = await messageUrl({});
    expect(none.status).toBe(400);
    expect(none.body.error).toEqual({ code: "invalid_phone", message: MESSAGE_URL_MESSAGES.lineRequired, field: "agentPhone" });
    const bad = await messageUrl({ agentPhone: "call me" });
    expect(bad.body.error).toEqual({ code: "invalid_phone", message: LINE_MESSAGES.invalidPhone, field: "agentPhone" });
    const unknown = await messageUrl({ messageLinePhone: "+14155550199" });
    expect(unknown.body.error).toEqual({ code: "message_line_not_registered", message: MESSAGE_URL_MESSAGES.lineNotRegistered, field: "messageLinePhone" });
    expect((await messageUrl({ agentPhone: LINE, channel: "imessage" })).body.error.code).toBe("message_line_not_registered");
    const two = await messageUrl({ agentPhone: LINE, messageLinePhone: "+14155550199" });
    expect(two.body.error).toEqual({ code: "invalid_request", message: MESSAGE_URL_MESSAGES.twoLines, field: "messageLinePhone" });
    expect((await messageUrl({ agentPhone: LINE, messageLinePhone: "(415) 555-0100" })).status).toBe(200);
  });

  it("takes a completion URL only absolute https (http on localhost) and registered for the agent and plane", async () => {
    for (const bad of [
      "http://app.example.com/done",
      "ftp://app.example.com/done",
      "/done",
      "not a url",
      "https://user:pw@app.example.com/done",
      "javascript:alert(1)",
      "myapp://done",
    ]) {
      const res = await messageUrl({ agentPhone: LINE, messageCompleteUrl: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toEqual({ code: "invalid_destination", message: MESSAGE_URL_MESSAGES.invalidCompleteUrl, field: "messageCompleteUrl" });
    }
    const notRegistered = { code: "destination_not_registered", message: MESSAGE_URL_MESSAGES.completeUrlNotRegistered, field: "messageCompleteUrl" };
    for (const unregistered of ["https://app.example.com/other", "http://localhost:4000/cb", "https://app.example.com/done?x=1"]) {
      expect((await messageUrl({ agentPhone: LINE, messageCompleteUrl: unregistered })).body.error, unregistered).toEqual(notRegistered);
    }
    await registerReturnDestination({ developerId: t.developer.id, agentId: t.agent.id, plane: "live", url: "http://localhost:4000/cb" });
    expect((await messageUrl({ agentPhone: LINE, messageCompleteUrl: "http://localhost:4000/cb" })).status).toBe(200);
    // Registered for the live plane only: a test-plane URL cannot use it.
    await registerLine({ phone: LINE }, headers(t, t.keys.skTest));
    expect((await messageUrl({ agentPhone: LINE, messageCompleteUrl: DONE }, headers(t, t.keys.skTest))).body.error).toEqual(notRegistered);
  });

  it("refuses connectors a sign-in link cannot name, and oversize fields", async () => {
    for (const body of [
      { agentPhone: LINE, reason: "reconnect", connectors: ["outlook"] },
      { agentPhone: LINE, reason: "review" },
      { agentPhone: LINE, messageBody: "x".repeat(1001) },
      { agentPhone: LINE, journeyId: "j".repeat(201) },
      { agentPhone: LINE, idempotencyKey: "k".repeat(201) },
    ]) {
      const res = await messageUrl(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("returns the stored answer for a repeated idempotency key, and refuses the key for another request", async () => {
    const body = { agentPhone: LINE, messageBody: "hello", journeyId: "j-1", idempotencyKey: "idem-1" };
    const first = await messageUrl(body);
    expect(first.status).toBe(200);
    expect(first.body.idempotencyKey).toBe("idem-1");
    // The same request: field order, an explicit default and `required` do not make it another.
    const same = await messageUrl({ idempotencyKey: "idem-1", channel: "sms", journeyId: "j-1", messageBody: "hello", agentPhone: LINE, required: ["x"] });
    expect(same.body).toEqual(first.body);
    const changed = await messageUrl({ ...body, messageBody: "other" });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toEqual({ code: "idempotency_key_reused", message: MESSAGE_URL_MESSAGES.idempotencyKeyReused, field: "idempotencyKey" });
    const rows = await (await db()).messageUrlRequest.findMany({ where: { developerId: t.developer.id } });
    expect(rows).toHaveLength(1);
    const { url: _url, ...withoutUrl } = first.body as Record<string, unknown>;
    expect(rows[0]).toMatchObject({
      agentId: t.agent.id,
      plane: "live",
      idempotencyKey: "idem-1",
      answer: { ...withoutUrl, expiresAt: Number(new URL(first.body.url).searchParams.get("exp")) },
    });
    // The URL (which holds the line's number) is built again for a retry, never stored.
    expect(JSON.stringify(rows[0])).not.toContain(LINE.slice(1));
    expect(rows[0]!.requestHash).toMatch(/^[0-9a-f]{64}$/);
    // The key belongs to the agent and plane: the test plane keeps its own.
    await registerLine({ phone: LINE }, headers(t, t.keys.skTest));
    const testPlane = await messageUrl({ ...body, messageBody: "other" }, headers(t, t.keys.skTest));
    expect(testPlane.status).toBe(200);
    expect(testPlane.body.url).not.toBe(first.body.url);
  });

  it("stores one answer for 20 parallel calls with one key, and gives each the same", async () => {
    const body = { agentPhone: LINE, messageBody: "race", idempotencyKey: "race-1" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => messageUrl(body)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(answers[0]!.body);
    }
    expect(await (await db()).messageUrlRequest.count({ where: { developerId: t.developer.id, idempotencyKey: "race-1" } })).toBe(1);
  });
});

/** Opens a message URL on the sign-in host as a browser would: the flow it starts, or null. */
async function openOnHost(address: string) {
  const url = new URL(address);
  const segments = url.pathname.split("/").filter(Boolean);
  const reconnect = segments.at(-1) === "reconnect";
  if (reconnect) segments.pop();
  const name = decodeURIComponent(segments.at(-1)!);
  const hostUrl = new URL(`http://localhost:3000/sign-in/${name}${reconnect ? "/reconnect" : ""}${url.search}`);
  const res = await (reconnect ? signInHostReconnect : signInHost)(new Request(hostUrl, { headers: { "x-service-client-ip": "10.9.0.2" } }), {
    params: Promise.resolve({ agent: name }),
  });
  const location = res.headers.get("location");
  return res.status === 303 && location?.includes("/flow/") ? findFlow(location.split("/flow/")[1]!) : null;
}

describe("POST /v1/auth/sign-in/recognize-phone", () => {
  it("reads every candidate form", () => {
    expect(readCandidates(["tel:+14155550100", "sms:+14155550100?body=hi", "imessage:+14155550100", "tel:+1-415-555-0100;phone-context=x", "sms://+14155550100"]).phones).toEqual([
      LINE,
    ]);
    expect(readCandidates(["4155550100"]).phones).toEqual([LINE]);
    expect(readCandidates(["14155550100"]).phones).toEqual([LINE]);
    expect(readCandidates(["442079460958"]).phones).toEqual(["+442079460958"]);
    expect(readCandidates(["Ada@Example.com", "imessage:grace@example.org", "not-an@", "hello"])).toEqual({
      phones: [],
      emails: ["ada@example.com", "grace@example.org"],
      phoneCandidateCount: 0,
    });
    expect(phoneFrom("tel:%2B14155550100")).toBe(LINE);
  });

  it("recognizes an approved sender in each candidate form and returns an agent token for them", async () => {
    const phone = randomUsPhone();
    const user = await createUser({ plane: "live", phone });
    await approveAgent({ userId: user.id, agentId: t.agent.id });
    const digits = phone.slice(2);
    const forms = [
      phone,
      `tel:${phone}`,
      `sms:${phone}?body=hi`,
      `imessage:${phone}`,
      `tel:${phone};phone-context=+1`,
      `+1 (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
      digits,
      `1${digits}`,
    ];
    for (const form of forms) {
      const res = await recognize([form]);
      expect(res.status, form).toBe(200);
      expect(res.body, form).toMatchObject({
        matched: true,
        recognized: true,
        approved: true,
        linked: true,
        userId: user.id,
        agent: t.agent.handle,
        displayName: "Assistant",
        phoneCandidateCount: 1,
      });
      expect(res.body.agentToken).toBe(res.body.token);
      expect(await verifyAgentToken(res.body.token)).toEqual({ userId: user.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    }
    // Digits without a country's +: read as country code and number.
    const uk = `+4420794${String(randomBytes(2).readUInt16BE() % 10_000).padStart(4, "0")}`;
    const international = await createUser({ plane: "live", phone: uk });
    await approveAgent({ userId: international.id, agentId: t.agent.id });
    expect((await recognize([uk.slice(1)])).body).toMatchObject({ matched: true, approved: true, userId: international.id, phoneCandidateCount: 1 });
  });

  it("recognizes a sender who has not approved the agent without a token or their user id", async () => {
    const phone = randomUsPhone();
    const user = await createUser({ plane: "live", phone });
    const res = await recognize([phone, "unrelated"]);
    expect(res.body).toEqual({
      matched: true,
      recognized: true,
      approved: false,
      linked: false,
      token: null,
      agentToken: null,
      userId: null,
      agent: t.agent.handle,
      displayName: "Assistant",
      phoneCandidateCount: 1,
    });
    await approveAgent({ userId: user.id, agentId: t.agent.id });
    expect((await recognize([phone])).body.approved).toBe(true);
    await revokeApproval({ userId: user.id, agentId: t.agent.id });
    expect((await recognize([phone])).body).toMatchObject({ matched: true, approved: false, token: null, userId: null });
    // Another agent of the developer, or another developer's agent, has no approval of its own.
    await approveAgent({ userId: user.id, agentId: t.agent.id });
    const second = await createAgent({ developerId: t.developer.id, handle: "second-agent", displayName: "Second" });
    expect((await recognize([phone], headers(t, t.keys.sk, second.handle))).body).toMatchObject({
      matched: true,
      approved: false,
      token: null,
      agent: "second-agent",
      displayName: "Second",
    });
    const other = await createTenant("other-dev", "other-agent");
    expect((await recognize([phone], headers(other))).body).toMatchObject({ matched: true, approved: false, token: null, userId: null });
  });

  it("matches nobody when the candidates name two people, or none", async () => {
    const [a, b] = [randomUsPhone(), randomUsPhone()];
    for (const phone of [a, b]) await approveAgent({ userId: (await createUser({ plane: "live", phone })).id, agentId: t.agent.id });
    const both = await recognize([a, `tel:${b}`]);
    expect(both.body).toMatchObject({ matched: false, recognized: false, approved: false, linked: false, token: null, agentToken: null, userId: null, phoneCandidateCount: 2 });
    const sameTwice = await recognize([a, `sms:${a}`]);
    expect(sameTwice.body).toMatchObject({ matched: true, approved: true, phoneCandidateCount: 2 });
    expect((await recognize([randomUsPhone()])).body).toMatchObject({ matched: false, phoneCandidateCount: 1 });
    expect((await recognize(["hello", "12"])).body).toMatchObject({ matched: false, phoneCandidateCount: 0 });
  });

  it("matches an address only when an OAuth-verified mailbox credential holds it", async () => {
    const prisma = await db();
    const address = `ada-${randomBytes(3).toString("hex")}@example.com`;
    const user = await createUser({ plane: "live", phone: randomUsPhone() });
    await approveAgent({ userId: user.id, agentId: t.agent.id });
    for (const proof of ["none", "email_code", "development_code"] as const) {
      await prisma.user.update({ where: { id: user.id }, data: { email: address, emailProof: proof } });
      expect((await recognize([address])).body.matched, proof).toBe(false);
    }
    // A connected Outlook proves nothing; a connected Gmail that Google verified does.
    await prisma.appConnection.create({ data: { userId: user.id, app: "outlook", provider: "microsoft", accountId: "m-1", accountEmail: address, accessTokenSealed: "v1.x.x.x" } });
    expect((await recognize([address])).body.matched).toBe(false);
    await prisma.appConnection.create({ data: { userId: user.id, app: "gmail", provider: "google", accountId: "g-1", accountEmail: address, accessTokenSealed: "v1.x.x.x" } });
    expect((await recognize([address.toUpperCase()])).body).toMatchObject({ matched: true, approved: true, userId: user.id, phoneCandidateCount: 0 });
    await prisma.appConnection.deleteMany({ where: { userId: user.id } });
    expect((await recognize([address])).body.matched).toBe(false);
    await prisma.user.update({ where: { id: user.id }, data: { emailProof: "third_party" } });
    expect((await recognize([address])).body).toMatchObject({ matched: true, approved: true, userId: user.id });
    // Only the exact address: no partial or inferred forms.
    expect((await recognize([address.replace("@", "+x@")])).body.matched).toBe(false);
    // The address of one person and the number of another: ambiguous.
    const otherPhone = randomUsPhone();
    await createUser({ plane: "live", phone: otherPhone });
    expect((await recognize([address, otherPhone])).body.matched).toBe(false);
  });

  it("keeps to the key's plane: test keys see only the developer's own test users", async () => {
    const phone = randomUsPhone();
    const live = await createUser({ plane: "live", phone });
    await approveAgent({ userId: live.id, agentId: t.agent.id });
    const testHeaders = headers(t, t.keys.skTest);
    expect((await recognize([phone], testHeaders)).body.matched).toBe(false);
    const testUser = await createUser({ plane: "test", developerId: t.developer.id, phone });
    await approveAgent({ userId: testUser.id, agentId: t.agent.id });
    const res = await recognize([phone], testHeaders);
    expect(res.body).toMatchObject({ matched: true, approved: true, userId: testUser.id });
    expect((await verifyAgentToken(res.body.token))?.plane).toBe("test");
    expect((await recognize([phone])).body.userId).toBe(live.id);
    // Another developer's test user with the same number is not this developer's.
    const other = await createTenant("other-dev", "other-agent");
    expect((await recognize([phone], headers(other, other.keys.skTest))).body.matched).toBe(false);
    // A test user's verified address is seen by the developer's test key only.
    const address = `t-${randomBytes(3).toString("hex")}@example.com`;
    await (await db()).user.update({ where: { id: testUser.id }, data: { email: address, emailProof: "third_party" } });
    expect((await recognize([address], testHeaders)).body.userId).toBe(testUser.id);
    expect((await recognize([address])).body.matched).toBe(false);
    expect((await recognize([address], headers(other, other.keys.skTest))).body.matched).toBe(false);
  });

  it("validates the candidates list", async () => {
    for (const candidates of [[], Array.from({ length: 11 }, () => LINE), ["x".repeat(321)]]) {
      const res = await recognize(candidates);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it(`answers 429 rate_limited past ${RECOGNITIONS_PER_MINUTE} recognitions per key per minute`, async () => {
    for (let i = 0; i < RECOGNITIONS_PER_MINUTE; i++) expect((await recognize([LINE])).status).toBe(200);
    const limited = await recognize([LINE]);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "rate_limited", message: MESSAGES.rateLimited });
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.error.retry_after));
    // The budget is the key's: another key of the same developer still has its own.
    expect((await recognize([LINE], headers(t, t.keys.skTest))).status).toBe(200);
  });

  it(`answers 429 past ${RECOGNITIONS_PER_DEVELOPER_PER_MINUTE} recognitions per developer account per minute, whatever the keys`, async () => {
    const keys = await Promise.all(
      Array.from({ length: RECOGNITIONS_PER_DEVELOPER_PER_MINUTE / RECOGNITIONS_PER_MINUTE + 1 }, () =>
        issueApiKey({ developerId: t.developer.id, kind: "secret", plane: "live" }),
      ),
    );
    for (const { key } of keys.slice(0, -1)) {
      const answers = await Promise.all(Array.from({ length: RECOGNITIONS_PER_MINUTE }, () => recognize([LINE], headers(t, key))));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    const limited = await recognize([LINE], headers(t, keys.at(-1)!.key));
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
  });
});
