// The dashboard's overview of one account: what it holds, counted.
import { activeKeyFilter } from "../api-keys/api-keys";
import { db } from "../db";

export async function accountOverview(developerId: string) {
  const prisma = await db();
  const activeKey = { developerId, ...activeKeyFilter() };
  const [liveKeys, testKeys, agents, activeAgents, origins, members] = await Promise.all([
    prisma.apiKey.count({ where: { ...activeKey, plane: "live" } }),
    prisma.apiKey.count({ where: { ...activeKey, plane: "test" } }),
    prisma.agent.count({ where: { developerId } }),
    prisma.agent.count({ where: { developerId, active: true } }),
    prisma.approvedOrigin.count({ where: { developerId } }),
    prisma.developerMember.count({ where: { developerId } }),
  ]);
  return { liveKeys, testKeys, agents, activeAgents, origins, members };
}
