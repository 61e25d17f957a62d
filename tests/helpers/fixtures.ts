// Tenants built through the service's own functions: a developer with keys, an agent and users.
import { randomBytes } from "node:crypto";
import { createAgent } from "@/lib/agents/agents";
import { createDeveloper } from "@/lib/developers/developers";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { approveAgent } from "@/lib/users/approvals";
import { createUser, linkExternalId } from "@/lib/users/users";

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

function randomPhone(): string {
  return `+1415${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, "0")}`;
}

export async function createTenant(name = `dev-${randomBytes(3).toString("hex")}`, agentHandle = "assistant") {
  const developer = await createDeveloper({ name });
  const [sk, skTest, pk, pkTest, revoked] = await Promise.all([
    issueApiKey({ developerId: developer.id, kind: "secret", plane: "live" }),
    issueApiKey({ developerId: developer.id, kind: "secret", plane: "test" }),
    issueApiKey({ developerId: developer.id, kind: "publishable", plane: "live" }),
    issueApiKey({ developerId: developer.id, kind: "publishable", plane: "test" }),
    issueApiKey({ developerId: developer.id, kind: "secret", plane: "live" }),
  ]);
  const { revokeApiKey } = await import("@/lib/api-keys/api-keys");
  await revokeApiKey({ developerId: developer.id, idOrPrefix: revoked.record.id });
  const agent = await createAgent({ developerId: developer.id, handle: agentHandle, displayName: "Assistant" });

  const liveUser = await createUser({ plane: "live", phone: randomPhone(), name: "Live Person" });
  await linkExternalId({ developerId: developer.id, plane: "live", externalId: "user-live", userId: liveUser.id });
  await approveAgent({ userId: liveUser.id, agentId: agent.id });

  const testUser = await createUser({ plane: "test", developerId: developer.id, phone: randomPhone(), name: "Test Person" });
  await linkExternalId({ developerId: developer.id, plane: "test", externalId: "user-test", userId: testUser.id });
  await approveAgent({ userId: testUser.id, agentId: agent.id });

  // A user only this developer knows, under an id no other tenant uses.
  await linkExternalId({ developerId: developer.id, plane: "live", externalId: `${agentHandle === "assistant" ? "a" : "b"}-only`, userId: liveUser.id });

  const unapproved = await createUser({ plane: "live", phone: randomPhone() });
  await linkExternalId({ developerId: developer.id, plane: "live", externalId: "user-unapproved", userId: unapproved.id });

  return {
    developer,
    agent,
    keys: { sk: sk.key, skTest: skTest.key, pk: pk.key, pkTest: pkTest.key, revoked: revoked.key },
    users: { live: liveUser, test: testUser, unapproved },
  };
}

/** Headers for a live secret-key call as the tenant's agent about its live user. */
export function liveHeaders(t: Tenant, extra: Record<string, string> = {}) {
  return { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live", ...extra };
}
