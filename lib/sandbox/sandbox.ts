// The sandbox: test keys, an agent and a pre-linked synthetic user without signup; reset and simulate.
import { randomBase62 } from "../platform/crypto";
import { db } from "../platform/db";
import { issueApiKey } from "../api-keys/api-keys";
import { agentView, createAgent } from "../agents/agents";
import { issueAgentToken } from "../bearer-tokens/agent-token";
import { clearUserAccessCache } from "../users/approvals";
import { clearProfile, seedSandboxConnections, seedSandboxProfile } from "./seed-profile";
import { phoneDigest } from "../users/phone";
import { ApiError } from "../http/errors";
import {
  SANDBOX_AGENT_HANDLE,
  SANDBOX_AGENT_NAME,
  SANDBOX_EXTERNAL_ID,
  SANDBOX_PHONE,
  SANDBOX_SCENARIOS,
  SANDBOX_USER_CLAIMS,
  SANDBOX_VERIFICATION_CODE,
  type SandboxScenario,
} from "./seed";

export async function provisionSandbox() {
  const prisma = await db();
  const { developer, agent, user } = await prisma.$transaction(async (tx) => {
    const developer = await tx.developer.create({ data: { name: `Sandbox ${randomBase62(8)}`, sandbox: true } });
    const agent = await createAgent({ developerId: developer.id, handle: SANDBOX_AGENT_HANDLE, displayName: SANDBOX_AGENT_NAME }, tx);
    const user = await tx.user.create({
      data: {
        plane: "test",
        developerId: developer.id,
        synthetic: true,
        phoneScope: developer.id,
        ...phoneDigest(SANDBOX_PHONE),
        ...SANDBOX_USER_CLAIMS,
        externalIds: { create: { developerId: developer.id, plane: "test", externalId: SANDBOX_EXTERNAL_ID } },
        approvals: { create: { agentId: agent.id } },
      },
    });
    await seedSandboxProfile(tx, { userId: user.id, agent });
    await seedSandboxConnections(tx, { userId: user.id, email: SANDBOX_USER_CLAIMS.email, agentId: agent.id });
    return { developer, agent, user };
  });
  const [secret, publishable, token] = await Promise.all([
    issueApiKey({ developerId: developer.id, kind: "secret", plane: "test", name: "sandbox", createdBy: { via: "sandbox" } }),
    issueApiKey({ developerId: developer.id, kind: "publishable", plane: "test", name: "sandbox", createdBy: { via: "sandbox" } }),
    issueAgentToken({ userId: user.id, developerId: developer.id, agentId: agent.id, agent: agent.handle, plane: "test" }),
  ]);
  return {
    secret_key: secret.key,
    publishable_key: publishable.key,
    agent: { handle: agent.handle, sign_in_url: agentView(agent).sign_in_url },
    user: {
      id: user.id,
      external_id: SANDBOX_EXTERNAL_ID,
      phone: SANDBOX_PHONE,
      verification_code: SANDBOX_VERIFICATION_CODE,
      agent_token: token.token,
    },
  };
}

/** Restores the developer's synthetic user to its seeded state and clears simulated failures. */
export async function resetSandbox(input: { developerId: string; agentId: string }) {
  const prisma = await db();
  const result = await prisma.$transaction(async (tx) => {
    const user = await tx.user.findFirst({
      where: { developerId: input.developerId, plane: "test", synthetic: true },
      select: { id: true },
    });
    if (!user) throw new ApiError("not_found", "This developer account has no synthetic sandbox user.");
    await tx.user.update({ where: { id: user.id }, data: { ...SANDBOX_USER_CLAIMS, ...phoneDigest(SANDBOX_PHONE) } });
    await tx.agentApproval.deleteMany({ where: { userId: user.id } });
    await tx.agentApproval.create({ data: { userId: user.id, agentId: input.agentId } });
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: input.agentId }, select: { id: true, handle: true } });
    await clearProfile(tx, user.id);
    await seedSandboxProfile(tx, { userId: user.id, agent });
    await seedSandboxConnections(tx, { userId: user.id, email: SANDBOX_USER_CLAIMS.email, agentId: agent.id });
    await tx.sandboxScenario.deleteMany({ where: { developerId: input.developerId } });
    return { ok: true, user: { id: user.id, external_id: SANDBOX_EXTERNAL_ID } };
  });
  clearUserAccessCache();
  return result;
}

export function isSandboxScenario(value: string): value is SandboxScenario {
  return (SANDBOX_SCENARIOS as readonly string[]).includes(value);
}

export async function simulateScenario(input: { developerId: string; scenario: SandboxScenario }) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    await tx.sandboxScenario.upsert({
      where: { developerId_scenario: { developerId: input.developerId, scenario: input.scenario } },
      create: { developerId: input.developerId, scenario: input.scenario },
      update: {},
    });
    // The synthetic user's Gmail fails as a revoked grant does: it needs reconnecting (until reset).
    if (input.scenario === "gmail_token_expired") {
      const synthetic = await tx.user.findMany({ where: { developerId: input.developerId, plane: "test", synthetic: true }, select: { id: true } });
      await tx.appConnection.updateMany({ where: { app: "gmail", userId: { in: synthetic.map((u) => u.id) } }, data: { status: "needs_reconnect" } });
    }
  });
  return { ok: true, scenario: input.scenario, active_scenarios: await activeScenarios(input.developerId) };
}

/** Scenarios in force for a developer (connectors consult this). */
export async function activeScenarios(developerId: string): Promise<SandboxScenario[]> {
  const rows = await (await db()).sandboxScenario.findMany({ where: { developerId }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => r.scenario).filter(isSandboxScenario);
}
