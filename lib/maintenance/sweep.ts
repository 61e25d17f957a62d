// The sweep: what has outlived its use leaves the database — expired codes, tokens and flows, the
// development outbox's old messages, access log entries past their retention, forgotten idempotency
// keys. It runs every 15 minutes on one instance (a pg-boss schedule).
import { sweepAccessLog } from "../access-log/access-log";
import { now as clockNow } from "../platform/clock";
import { sweepConnectorActions } from "../connectors/tools/run";
import { database } from "../platform/db";
import { QUEUES, schedule, work } from "../platform/jobs";
import { logger } from "../platform/log";
import { PERSONAL_MCP_DEVELOPER_ID } from "../developers/personal-mcp-account";
import { sweepRequestLog } from "../request-log/record";
import { requeuePendingCallbacks } from "../sign-in/completion-callback";
import { WEBHOOK_LOG_KEPT_MS } from "../webhooks/deliveries";

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long expired rows stay (they explain a late "expired" answer for a day). */
export const EXPIRED_KEPT_MS = DAY_MS;
/** Revoked grants stay this long, so a late reuse of one of their tokens still reads as revoked. */
export const REVOKED_GRANT_KEPT_MS = 30 * DAY_MS;
export const OUTBOX_KEPT_MS = 7 * DAY_MS;
export const SWEEP_CRON = "*/15 * * * *";

/**
 * Deletes, each in one statement:
 * - authorization codes, access tokens, flows and phone codes expired more than a day ago;
 * - refresh tokens past their own 90-day life (used ones included: until then a late reuse still
 *   revokes the chain);
 * - grants revoked more than 30 days ago, and grants left with no refresh token (their tokens with them);
 * - connection attempts and e-mail codes expired more than a day ago, connect links and partner flow
 *   sessions 30 days after they expired (until then their status still reads, "expired" or "completed");
 * - outbox messages (text and e-mail) older than 7 days;
 * - sign-in codes expired more than a day ago, message-URL answers kept two days (their links live one),
 *   completion callbacks 30 days after they were made;
 * - a finished or dead flow's mark on connections that joined an account, and connections made in a
 *   flow that never reached an account once that flow is gone;
 * - MCP clients of the personal endpoint nobody signed in through within a day, and their agents;
 * - access log entries older than their retention (ACCESS_LOG_RETENTION_DAYS);
 * - developer request log rows older than REQUEST_LOG_RETENTION_DAYS (in batches);
 * - connector action tools' idempotency keys past their 24 hours.
 * Then it queues again any completion callback still pending.
 */
export async function sweepExpired(at = clockNow()): Promise<Record<string, number>> {
  const { sql } = await database();
  const day = new Date(at.getTime() - EXPIRED_KEPT_MS);
  const statements: Array<[string, string, Date]> = [
    ["oauth_codes", `DELETE FROM oauth_codes WHERE expires_at < $1`, day],
    ["oauth_access_tokens", `DELETE FROM oauth_access_tokens WHERE expires_at < $1`, day],
    ["oauth_refresh_tokens", `DELETE FROM oauth_refresh_tokens WHERE expires_at < $1`, at],
    ["oauth_grants_revoked", `DELETE FROM oauth_grants WHERE revoked_at < $1`, new Date(at.getTime() - REVOKED_GRANT_KEPT_MS)],
    ["oauth_grants_ended", `DELETE FROM oauth_grants g WHERE g.created_at < $1 AND NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens t WHERE t.grant_id = g.id)`, day],
    ["flow_sessions", `DELETE FROM flow_sessions WHERE expires_at < $1`, day],
    ["phone_codes", `DELETE FROM phone_codes WHERE expires_at < $1`, day],
    ["email_codes", `DELETE FROM email_codes WHERE expires_at < $1`, day],
    ["passkey_challenges", `DELETE FROM passkey_challenges WHERE expires_at < $1`, at],
    ["connect_attempts", `DELETE FROM connect_attempts WHERE expires_at < $1`, day],
    ["connect_links", `DELETE FROM connect_links WHERE expires_at < $1`, new Date(at.getTime() - REVOKED_GRANT_KEPT_MS)],
    ["partner_sessions", `DELETE FROM partner_sessions WHERE expires_at < $1`, new Date(at.getTime() - REVOKED_GRANT_KEPT_MS)],
    ["sms_outbox", `DELETE FROM sms_outbox WHERE created_at < $1`, new Date(at.getTime() - OUTBOX_KEPT_MS)],
    ["email_outbox", `DELETE FROM email_outbox WHERE created_at < $1`, new Date(at.getTime() - OUTBOX_KEPT_MS)],
    ["sign_in_codes", `DELETE FROM sign_in_codes WHERE expires_at < $1`, day],
    ["sign_in_message_url_requests", `DELETE FROM sign_in_message_url_requests WHERE created_at < $1`, new Date(at.getTime() - 2 * DAY_MS)],
    // The delivery log keeps 30 days; an event goes with its deliveries (the foreign keys cascade).
    ["webhook_events", `DELETE FROM webhook_events WHERE created_at < $1`, new Date(at.getTime() - WEBHOOK_LOG_KEPT_MS)],
    ["sign_in_completion_callbacks", `DELETE FROM sign_in_completion_callbacks WHERE created_at < $1`, new Date(at.getTime() - REVOKED_GRANT_KEPT_MS)],
    [
      "app_connections_flow_ended",
      `UPDATE app_connections c SET flow_id = NULL WHERE c.user_id IS NOT NULL AND c.flow_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM flow_sessions f WHERE f.id = c.flow_id AND f.status = 'active' AND f.expires_at > $1)`,
      at,
    ],
    [
      "app_connections_abandoned",
      `DELETE FROM app_connections c WHERE c.user_id IS NULL AND c.flow_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM flow_sessions f WHERE f.id = c.flow_id) AND c.created_at < $1`,
      day,
    ],
    // MCP clients nobody signed in through within a day of registering (or of their document's first
    // read) leave with the agents made for them: open registration cannot pile up rows.
    [
      "mcp_clients_unused",
      `DELETE FROM oauth_clients c WHERE c.kind <> 'oidc' AND c.created_at < $1
         AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id)
         AND NOT EXISTS (SELECT 1 FROM flow_sessions f WHERE f.client_id = c.id)`,
      day,
    ],
    [
      "mcp_client_agents_orphaned",
      `DELETE FROM agents a WHERE a.developer_id = '${PERSONAL_MCP_DEVELOPER_ID}' AND a.created_at < $1
         AND NOT EXISTS (SELECT 1 FROM oauth_clients c WHERE c.agent_id = a.id)
         AND NOT EXISTS (SELECT 1 FROM agent_approvals p WHERE p.agent_id = a.id)`,
      day,
    ],
  ];
  const deleted: Record<string, number> = {};
  for (const [name, text, cutoff] of statements) {
    const rows = await sql.query<{ n: number }>(`WITH d AS (${text} RETURNING 1) SELECT count(*)::int AS n FROM d`, [cutoff]);
    deleted[name] = rows[0]?.n ?? 0;
  }
  deleted.access_log = await sweepAccessLog(at);
  deleted.request_log = await sweepRequestLog(at);
  // Against the clock's now, not `at`: the keys' 24 hours are decided beside the action tools.
  deleted.connector_actions = await sweepConnectorActions();
  deleted.completion_callbacks_requeued = await requeuePendingCallbacks(at);
  return deleted;
}

/** Starts this process's sweep worker and makes sure the schedule exists. */
export async function startSweeper(): Promise<void> {
  await work(QUEUES.sweep, async () => {
    const deleted = await sweepExpired();
    logger().info({ deleted }, "sweep");
  });
  await schedule(QUEUES.sweep, SWEEP_CRON);
}
