// Prepares an embedded database for the browser tests before a server opens it (PGlite serves one
// process at a time): a live developer with keys and an agent, or an already expired flow.
// Usage: tsx e2e/support/seed.ts <data-dir> developer|expired-flow   → prints JSON
export {};
const [dataDir, what] = process.argv.slice(2);
if (!dataDir || !what) throw new Error("usage: seed.ts <data-dir> developer|expired-flow");
Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "silent" });

const { createDeveloper } = await import("../../lib/developers/developers");
const { issueApiKey } = await import("../../lib/api-keys/api-keys");
const { createAgent } = await import("../../lib/agents/agents");
const { closeDatabase, db } = await import("../../lib/platform/db");

async function developer() {
  const dev = await createDeveloper({ name: "Trailhead Travel" });
  const agent = await createAgent({ developerId: dev.id, handle: "trailhead", displayName: "Trailhead" });
  const sk = await issueApiKey({ developerId: dev.id, kind: "secret", plane: "live" });
  const pk = await issueApiKey({ developerId: dev.id, kind: "publishable", plane: "live" });
  // A partner whose linked_account links ask for phone and code first (e2e/partner.spec.ts).
  const { setPartnerPhoneFirst } = await import("../../lib/developers/developers");
  const partner = await createDeveloper({ name: "Phone First Partner" });
  await setPartnerPhoneFirst({ developerId: partner.id, on: true });
  const partnerAgent = await createAgent({ developerId: partner.id, handle: "phonefirst", displayName: "Phone First" });
  const partnerSk = await issueApiKey({ developerId: partner.id, kind: "secret", plane: "live" });
  return {
    secret_key: sk.key,
    publishable_key: pk.key,
    agent: agent.handle,
    agent_name: agent.displayName,
    phone_first_partner: { secret_key: partnerSk.key, agent: partnerAgent.handle, agent_name: partnerAgent.displayName },
  };
}

async function expiredFlow() {
  const { startFlow } = await import("../../lib/flow/start");
  const { oidc } = await import("../../lib/flow/ways-in/oidc");
  const { registerClient } = await import("../../lib/oidc/clients");
  const dev = await createDeveloper({ name: "Late Co" });
  const agent = await createAgent({ developerId: dev.id, handle: "late", displayName: "Late App" });
  const pk = await issueApiKey({ developerId: dev.id, kind: "publishable", plane: "live" });
  const { client } = await registerClient({ publishableKey: pk.key, redirectUri: "http://localhost:4999/callback", method: "none" });
  const flow = await startFlow(oidc, {
    ip: "127.0.0.1",
    developerId: dev.id,
    agentId: agent.id,
    plane: "live",
    request: { client_id: client.client_id, redirect_uri: "http://localhost:4999/callback", state: "s", nonce: null, scopes: ["openid"], code_challenge: "x".repeat(43) },
    required: [],
  });
  await (await db()).flowSession.update({ where: { id: flow.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  return { flow_id: flow.id, browser_secret: flow.browserSecret, app_name: agent.displayName };
}

const out = what === "developer" ? await developer() : await expiredFlow();
await closeDatabase();
console.log(JSON.stringify(out));
