// The dashboard's overview of one account: what it holds, counted, and whether its keys were used yet.
import { activeKeyFilter } from "../api-keys/api-keys";
import { db } from "../platform/db";
import { latestPlane } from "../request-log/queries";

export async function accountOverview(developerId: string) {
  const prisma = await db();
  const activeKey = { developerId, ...activeKeyFilter() };
  const [liveKeys, testKeys, agents, activeAgents, origins, members, requestPlane] = await Promise.all([
    prisma.apiKey.count({ where: { ...activeKey, plane: "live" } }),
    prisma.apiKey.count({ where: { ...activeKey, plane: "test" } }),
    prisma.agent.count({ where: { developerId } }),
    prisma.agent.count({ where: { developerId, active: true } }),
    prisma.approvedOrigin.count({ where: { developerId } }),
    prisma.developerMember.count({ where: { developerId } }),
    latestPlane({ developerId }),
  ]);
  /** The plane of the newest request in the request log; null before the first (or past retention). */
  return { liveKeys, testKeys, agents, activeAgents, origins, members, requestPlane };
}
