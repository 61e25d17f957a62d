// Everything the service holds about the person, as one JSON document they download from the account
// page: the account, the composed profile as agents read it, every memory with its provenance (hidden
// ones marked, and who asked to hide them), imports, approvals, app connections (never their tokens),
// capability grants, passkeys (their names and dates, never key material) and the access log.
import { sessionUserFromRequest } from "../person-auth/session";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { env } from "../env";
import { memoryView } from "../profile/memories";
import { accountOverview } from "./overview";
import { accountProfile } from "./profile";

/** The export's file name. */
export const EXPORT_FILE_NAME = "profile-export.json";

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** The person's export; null when the account no longer exists. */
export async function exportAccount(userId: string) {
  const overview = await accountOverview(userId);
  if (!overview) return null;
  const prisma = await db();
  const [user, profile, memories, imports, approvals, connections, capabilities, accessLog, suppressions, passkeys] = await Promise.all([
    prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, plane: true, createdAt: true } }),
    accountProfile(userId),
    prisma.memory.findMany({ where: { userId }, orderBy: [{ learnedAt: "asc" }, { id: "asc" }] }),
    prisma.import.findMany({ where: { userId }, orderBy: { createdAt: "asc" } }),
    prisma.agentApproval.findMany({ where: { userId }, orderBy: { approvedAt: "asc" }, include: { agent: { select: { handle: true, displayName: true } } } }),
    prisma.appConnection.findMany({
      where: { userId },
      orderBy: { createdAt: "asc" },
      // Never the sealed tokens.
      select: { app: true, provider: true, accountEmail: true, scopes: true, status: true, createdAt: true },
    }),
    prisma.capabilityGrant.findMany({ where: { userId }, orderBy: { grantedAt: "asc" } }),
    prisma.accessLogEntry.findMany({ where: { userId }, orderBy: [{ at: "asc" }, { id: "asc" }] }),
    prisma.memorySuppression.findMany({
      where: { userId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: {
        id: true,
        requestedBy: true,
        agentName: true,
        createdAt: true,
        agent: { select: { developer: { select: { name: true } } } },
        memories: { select: { memoryId: true } },
      },
    }),
    // What the person sees of each passkey on the account page; never the credential id or public key.
    prisma.passkeyCredential.findMany({
      where: { userId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { name: true, createdAt: true, lastUsedAt: true, backedUp: true },
    }),
  ]);
  return {
    exported_at: clockNow().toISOString(),
    account: { id: user.id, plane: user.plane, created_at: iso(user.createdAt), phone_last4: overview.phoneLast4, email: overview.email, email_verified: overview.emailVerified },
    profile,
    // Each memory as the API shows it in detail, and whether the person hid it.
    memories: memories.map((m) => ({
      ...memoryView(m),
      hidden: m.suppressedAt !== null,
      hidden_at: iso(m.suppressedAt),
    })),
    imports: imports.map((i) => ({ id: i.id, provider: i.provider, source: i.source, memory_count: i.memoryCount, created_at: iso(i.createdAt) })),
    approvals: approvals.map((a) => ({ agent: a.agent.handle, agent_name: a.agent.displayName, approved_at: iso(a.approvedAt), revoked_at: iso(a.revokedAt) })),
    connections: connections.map((c) => ({ app: c.app, provider: c.provider, account_email: c.accountEmail, scopes: c.scopes, status: c.status, connected_at: iso(c.createdAt) })),
    capabilities: capabilities.map((c) => ({ agent_id: c.agentId, capability: c.capability, granted_at: iso(c.grantedAt) })),
    // Each request that hid memories: who asked (an agent and its developer, the person, or "earlier") and which memories it holds hidden.
    suppressions: suppressions.map((x) => ({
      id: x.id,
      requested_by: x.requestedBy,
      agent: x.agentName,
      developer: x.requestedBy === "agent" ? (x.agent?.developer.name ?? null) : null,
      created_at: iso(x.createdAt),
      memory_ids: x.memories.map((i) => i.memoryId).sort(),
    })),
    passkeys: passkeys.map((k) => ({ name: k.name, created_at: iso(k.createdAt), last_used_at: iso(k.lastUsedAt), synced: k.backedUp })),
    access_log: accessLog.map((e) => ({ at: iso(e.at), agent: e.agentName, surface: e.surface, action: e.action, outcome: e.outcome })),
  };
}

/** The export as a download: an attachment, never cached. */
export async function accountExportDownload(userId: string): Promise<Response | null> {
  const data = await exportAccount(userId);
  if (!data) return null;
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    status: 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${EXPORT_FILE_NAME}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * GET /account/export.json: the signed-in person's export, by the session cookie alone (an API key
 * or a Bearer token reaches nothing here). Without a session the browser goes to the account page.
 */
export async function accountExportRoute(req: Request): Promise<Response> {
  const userId = await sessionUserFromRequest(req);
  const download = userId ? await accountExportDownload(userId) : null;
  return download ?? new Response(null, { status: 303, headers: { Location: new URL("/account", env().BASE_URL).href, "Cache-Control": "no-store" } });
}
