// A sign-in link whose connectors is only sheets: the older connect page — phone, code, then "Connect
// Google Sheets" marked Required until connected, then the receipt — with required ignored. Sheets
// connects through the same Google client as Gmail, Calendar and Drive (against a local provider
// speaking Google's side), joins the account as app "sheets", and is never among the import screen's apps.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as connectInFlow } from "@/app/(hosted)/flow/[flowId]/connect/[app]/route";
import { GET as connectCallback } from "@/app/(hosted)/connect/callback/route";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import * as destinationsRoute from "@/app/v1/auth/sign-in/return-destinations/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { AppsScreen } from "@/components/flow/screens/apps";
import { APPS, IMPORT_SCREEN_APPS } from "@/lib/catalogue";
import { db } from "@/lib/platform/db";
import { findFlow, type Flow } from "@/lib/flow/store";
import { continueFromApp, StepError, submitCode, submitPhone } from "@/lib/flow/steps";
import { flowScreenView, type AppsView } from "@/lib/flow/views";
import { phoneDigest } from "@/lib/users/phone";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { startGoogleProvider } from "../helpers/google-provider";
import { call } from "../helpers/http";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

const RETURN = "https://app.example.com/auth/callback";
const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets.readonly";

let provider: Awaited<ReturnType<typeof startGoogleProvider>>;
beforeAll(async () => {
  provider = await startGoogleProvider({ redirectUri: "http://localhost:3000/connect/callback", email: "lin@example.com", accountId: "g-lin" });
  Object.assign(process.env, provider.env);
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(() => provider.close());

/** What the flow page shows this flow's browser. */
const shown = (flow: Flow) => flowScreenView({ state: "open", flow });

/** Opens {SIGN_IN_URL}/<agent> as a browser would: the flow it starts and the flow cookie it sets. */
async function openLink(t: Tenant, query: Record<string, string>) {
  const prisma = await db();
  const name = (await prisma.agent.findUniqueOrThrow({ where: { id: t.agent.id } })).signInName;
  const url = new URL(`http://localhost:3000/sign-in/${name}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await signInHost(new Request(url, { headers: { "x-service-client-ip": "10.9.1.1" } }), { params: Promise.resolve({ agent: name }) });
  expect(res.status).toBe(303);
  const flowId = res.headers.get("location")!.split("/flow/")[1]!;
  return { flowId, cookie: res.headers.get("set-cookie")!.split(";")[0]! };
}

describe("a sign-in link whose connectors is only sheets", () => {
  it("asks for phone and code, then connects Google Sheets through Google, and the account holds it", async () => {
    const t = await createTenant();
    expect((await call(destinationsRoute.POST, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle }, body: { return_to: RETURN } })).status).toBe(201);
    const { flowId, cookie } = await openLink(t, { connectors: "sheets", required: "email", return_to: RETURN });
    const reload = async () => (await findFlow(flowId))!;

    // The older connect page: required is ignored, and the number comes first.
    let flow = await reload();
    expect(flow).toMatchObject({ wayIn: "sign_in_link", screen: "phone", required: [] });
    expect(await shown(flow)).toMatchObject({ screen: "phone", shell: { steps: ["phone", "code", "app", "receipt"] } });

    const phone = "+14155550177";
    await submitPhone(flow, { phone, ip: "10.9.1.1" });
    const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
    const { userId } = await submitCode(await reload(), { code: sms.body.slice(0, 6) });
    flow = await reload();
    expect(flow).toMatchObject({ screen: "app", userId });

    // "Connect Google Sheets", its one row marked Required until connected; Continue waits for it.
    const view = (await shown(flow)) as AppsView;
    expect(view).toMatchObject({ screen: "app", app: "sheets", met: false, rows: [{ app: "sheets", state: "connect", required: true, detail: "Connect" }] });
    const actions = { continueApp: async () => null, continueApps: async () => null };
    const page = renderToStaticMarkup(createElement(AppsScreen, { view, actions }));
    expect(page).toContain("Connect Google Sheets");
    expect(page).toContain("Required");
    await expect(continueFromApp(flow)).rejects.toBeInstanceOf(StepError);

    // The row's link, in this browser: to Google, asking for Sheets' read-only scope, and back to the flow.
    const start = await connectInFlow(new Request(`http://localhost:3000${view.rows[0]!.href}`, { headers: { cookie } }), {
      params: Promise.resolve({ flowId, app: "sheets" }),
    });
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get("location")!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get("scope")).toBe(`openid email ${SHEETS_SCOPE}`);
    const attempt = start.headers.get("set-cookie")!.split(";")[0]!;
    const back = await connectCallback(new Request(await provider.consent(authorize), { headers: { cookie: attempt } }));
    expect(back.headers.get("location")).toBe(`http://localhost:3000/flow/${flowId}`);

    flow = await reload();
    expect(await shown(flow)).toMatchObject({ screen: "app", met: true, rows: [{ app: "sheets", state: "connected", required: false, detail: "lin@example.com" }] });
    await continueFromApp(flow);
    flow = await reload();
    expect(flow.screen).toBe("receipt");
    expect(flow.receipt?.connected).toEqual(["sheets"]);
    expect(await shown(flow)).toMatchObject({ screen: "receipt", connected: ["Google Sheets"], approved: true });

    // On the account as app "sheets", made through Google with the scope granted.
    const connection = await (await db()).appConnection.findUniqueOrThrow({ where: { userId_app: { userId, app: "sheets" } } });
    expect(connection).toMatchObject({ provider: "google", accountEmail: "lin@example.com", status: "active", flowId: null });
    expect(connection.scopes).toContain(SHEETS_SCOPE);
  });

  it("lists the Sheets connection on the profile read", async () => {
    const t = await createTenant();
    await (await db()).appConnection.create({ data: { userId: t.users.live.id, app: "sheets", provider: "google", accountId: "g", accessTokenSealed: "v1.x.x.x" } });
    const res = await call(profileRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" } });
    expect(res.status).toBe(200);
    expect(res.body.connections).toEqual([expect.objectContaining({ app: "sheets", provider: "google", status: "active" })]);
    expect(res.body.integrations).toEqual(["sheets"]);
  });
});

describe("Google Sheets is not among the import screen's apps", () => {
  it("offers the import screen's five apps, whatever is connected", async () => {
    expect(APPS).toContain("sheets");
    expect(IMPORT_SCREEN_APPS).not.toContain("sheets");
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge, { required: "sheets" })));
    const flow = (await findFlow(flowId))!;
    // `required` cannot name Sheets: the name is dropped like any unknown one.
    expect(flow.required).toEqual([]);
    const view = await shown(flow);
    expect(view.screen).toBe("import");
    expect(view.screen === "import" && view.apps.map((a) => a.app)).toEqual(["gmail", "calendar", "drive", "notion", "outlook"]);
  });
});
