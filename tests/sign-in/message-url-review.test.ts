// POST /v1/auth/sign-in/message-url with reason permission_review: the specification's permission-review
// URL. It is the connect link for what the agent asks of the person (a capability, or one app), texted
// from one of the agent's active lines; the fields only a sign-in host link carries are refused.
import { beforeAll, describe, expect, it } from "vitest";
import * as linesRoute from "@/app/v1/auth/sign-in/message-lines/route";
import { POST as messageUrlRoute } from "@/app/v1/auth/sign-in/message-url/route";
import { connectLinkUrl, linkStatus } from "@/lib/connect-links/links";
import { openConnectLink } from "@/lib/flow/ways-in/connect";
import { db } from "@/lib/platform/db";
import { findFlow } from "@/lib/flow/store";
import { FALLBACK_REASONS, MESSAGE_URL_MESSAGES, MESSAGE_URL_REASONS } from "@/lib/sign-in/message-url";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

const LINE = "+14155550142";

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
  expect((await call(linesRoute.POST, { headers: headers(), body: { phone: LINE } })).status).toBe(201);
});

function headers() {
  return { "x-api-key": t.keys.sk, "x-agent": t.agent.handle };
}

const messageUrl = (body: Record<string, unknown>) => call(messageUrlRoute, { headers: headers(), body });

/** The connect link a permission-review URL names. */
async function linkOf(url: string) {
  const id = url.slice(connectLinkUrl("").length);
  return (await db()).connectLink.findUniqueOrThrow({ where: { id } });
}

describe("POST /v1/auth/sign-in/message-url, reason permission_review", () => {
  it("is one of the reasons, beside signin and reconnect", () => {
    expect(MESSAGE_URL_REASONS).toEqual(["signin", "reconnect", "permission_review"]);
  });

  it("answers the connect link asking the person for a capability, which opens a flow for it", async () => {
    const res = await messageUrl({ reason: "permission_review", agentPhone: LINE, subject: { externalId: "user-live" }, capability: "gmail:send" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: "plain", url: expect.any(String), reason: "permission_review", fallbackReason: FALLBACK_REASONS.missing, idempotencyKey: null });
    expect(res.body.url).toMatch(new RegExp(`^${connectLinkUrl("").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}mcc_`));
    const link = await linkOf(res.body.url);
    expect(link).toMatchObject({
      developerId: t.developer.id,
      agentId: t.agent.id,
      plane: "live",
      userId: t.users.live.id,
      capability: "gmail:send",
      app: null,
      reason: "permission_needed",
    });
    expect(await linkStatus(link.id)).toBe("pending");

    const opened = await openConnectLink({ linkId: link.id, sessionUserId: null, ip: "127.0.0.1" });
    if (!("flow" in opened)) throw new Error("the link did not open");
    expect(await findFlow(opened.flow.id)).toMatchObject({ wayIn: "connect", request: { capability: "gmail:send", for_user_id: t.users.live.id } });

    // The same request again texts the same address while the link is valid.
    const again = await messageUrl({ reason: "permission_review", agentPhone: LINE, subject: { externalId: "user-live" }, capability: "gmail:send" });
    expect(again.body.url).toBe(res.body.url);
  });

  it("asks for one app, for a person the service does not know yet too, and keeps an idempotency key's answer", async () => {
    const app = await messageUrl({ reason: "permission_review", messageLinePhone: LINE, subject: { externalId: "user-live" }, connectors: ["gmail"] });
    expect(app.status).toBe(200);
    expect(await linkOf(app.body.url)).toMatchObject({ userId: t.users.live.id, app: "gmail", capability: null });

    const body = { reason: "permission_review", agentPhone: LINE, subject: { externalId: "someone-new" }, capability: "calendar:create_event", idempotencyKey: "review-1" };
    const first = await messageUrl(body);
    expect(first.status).toBe(200);
    expect(await linkOf(first.body.url)).toMatchObject({ userId: null, externalId: "someone-new", reason: "authorization_required" });
    const replay = await messageUrl(body);
    expect(replay.body).toEqual(first.body);
    expect((await messageUrl({ ...body, capability: "gmail:send" })).body.error.code).toBe("idempotency_key_reused");
  });

  it("refuses a review without a person or without what it asks, with two apps, or with the fields only a sign-in link carries", async () => {
    const base = { reason: "permission_review", agentPhone: LINE, subject: { externalId: "user-live" }, capability: "gmail:send" };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...base, subject: { senderId: "x" } }, "subject.externalId", MESSAGE_URL_MESSAGES.reviewNeedsPerson],
      [{ ...base, capability: undefined }, "capability", MESSAGE_URL_MESSAGES.reviewNeedsSubject],
      [{ ...base, connectors: ["gmail", "drive"] }, "connectors", MESSAGE_URL_MESSAGES.reviewOneApp],
      [{ ...base, messageCompleteUrl: "https://app.example.com/done" }, "messageCompleteUrl", MESSAGE_URL_MESSAGES.reviewNotCarried("messageCompleteUrl")],
      [{ ...base, journeyId: "j-1" }, "journeyId", MESSAGE_URL_MESSAGES.reviewNotCarried("journeyId")],
      [{ ...base, messageBody: "hi" }, "messageBody", MESSAGE_URL_MESSAGES.reviewNotCarried("messageBody")],
    ];
    const before = await (await db()).connectLink.count({ where: { developerId: t.developer.id } });
    for (const [body, field, message] of cases) {
      const res = await messageUrl(body);
      expect(res.status, field).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", message, fields: [{ field, message }] });
    }
    // A capability is a permission review's field only; the line is checked as for any reason.
    expect((await messageUrl({ reason: "signin", agentPhone: LINE, capability: "gmail:send" })).body.error.fields).toEqual([
      { field: "capability", message: "only with reason permission_review" },
    ]);
    expect((await messageUrl({ ...base, capability: "gmail" })).body.error.code).toBe("invalid_request");
    expect((await messageUrl({ ...base, agentPhone: "+14155550199" })).body.error.code).toBe("message_line_not_registered");
    expect(await (await db()).connectLink.count({ where: { developerId: t.developer.id } })).toBe(before);
  });
});
