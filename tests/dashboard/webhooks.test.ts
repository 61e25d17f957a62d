// The dashboard's webhook sends: test events and resends count per account and plane, whichever member
// asks, as the API counts them per key; past the limit the form says so and nothing is sent.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { createTenant, type Tenant } from "../helpers/fixtures";

let a: Tenant;
let owner: { id: string };
let teammate: { id: string };

beforeAll(async () => {
  a = await createTenant();
  const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
  owner = await dashboardUserFor("owner@example.com");
  teammate = await dashboardUserFor("teammate@example.com");
  const prisma = await db();
  await prisma.developerMember.create({ data: { developerId: a.developer.id, dashboardUserId: owner.id, role: "owner" } });
  await prisma.developerMember.create({ data: { developerId: a.developer.id, dashboardUserId: teammate.id, role: "member" } });
});

describe("test events and resends from the dashboard", () => {
  it("are limited per account and plane, across members, to the API's count per minute", async () => {
    const { sendDashboardWebhookTest, resendDashboardWebhookDelivery } = await import("@/lib/dashboard/webhooks");
    const { WEBHOOK_SENDS_PER_MINUTE } = await import("@/lib/webhooks/deliveries");
    const { createEndpoint } = await import("@/lib/webhooks/endpoints");
    const { DashboardError } = await import("@/lib/developer-auth/errors");
    const scope = { developerId: a.developer.id, plane: "test" as const };
    const { endpoint } = await createEndpoint({ ...scope, url: "https://hooks.example.com/dashboard", events: ["approval.granted"] });
    let last: unknown;
    for (let i = 0; i < WEBHOOK_SENDS_PER_MINUTE; i++) {
      const actorId = i % 2 ? teammate.id : owner.id;
      last = await sendDashboardWebhookTest({ actorId, developerId: a.developer.id, plane: "test", endpointId: endpoint.id });
    }
    const prisma = await db();
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(last).toBeDefined();
    const refusals = [
      sendDashboardWebhookTest({ actorId: owner.id, developerId: a.developer.id, plane: "test", endpointId: endpoint.id }),
      resendDashboardWebhookDelivery({ actorId: teammate.id, developerId: a.developer.id, plane: "test", deliveryId: delivery.id }),
    ];
    for (const refused of refusals) {
      await expect(refused).rejects.toBeInstanceOf(DashboardError);
      await expect(refused).rejects.toThrow("Too many test events and resends this minute. Try again in a minute.");
    }
    expect(await prisma.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(WEBHOOK_SENDS_PER_MINUTE);
    // The live plane counts apart.
    const live = await createEndpoint({ developerId: a.developer.id, plane: "live", url: "https://hooks.example.com/live", events: ["approval.granted"] });
    await expect(sendDashboardWebhookTest({ actorId: owner.id, developerId: a.developer.id, plane: "live", endpointId: live.endpoint.id })).resolves.toBeDefined();
  });
});
