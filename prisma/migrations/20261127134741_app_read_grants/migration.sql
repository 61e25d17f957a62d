-- Per-agent app grants: each agent reads only the apps the person gave it (capability "<app>:read").
-- Existing connections are granted to the agents the person connected each app through, as recorded:
-- the apps a finished flow connected (its receipt), an approved connect link for one app, and the
-- apps a finished partner flow connected; only while the connection held now is the one made then or
-- earlier (a connection made again later, outside any agent, grants no one). Nothing else is granted.
INSERT INTO "capability_grants" ("user_id", "agent_id", "capability", "granted_at")
SELECT DISTINCT g."user_id", g."agent_id", g."app" || ':read', CURRENT_TIMESTAMP
FROM (
    SELECT f."user_id", f."agent_id", c."app", COALESCE(f."ended_at", f."expires_at") AS "at"
    FROM "flow_sessions" f
    CROSS JOIN LATERAL jsonb_array_elements_text(
        CASE WHEN jsonb_typeof(f."receipt" -> 'connected') = 'array' THEN f."receipt" -> 'connected' ELSE '[]'::jsonb END
    ) AS c("app")
    WHERE f."receipt" IS NOT NULL AND f."user_id" IS NOT NULL AND f."agent_id" IS NOT NULL
    UNION ALL
    SELECT l."user_id", l."agent_id", l."app", l."approved_at"
    FROM "connect_links" l
    WHERE l."status" = 'approved' AND l."app" IS NOT NULL AND l."user_id" IS NOT NULL AND l."approved_at" IS NOT NULL
    UNION ALL
    SELECT p."user_id", p."agent_id", c."app", p."completed_at"
    FROM "partner_sessions" p
    CROSS JOIN LATERAL jsonb_array_elements_text(
        CASE WHEN jsonb_typeof(p."connected") = 'array' THEN p."connected" ELSE '[]'::jsonb END
    ) AS c("app")
    WHERE p."status" = 'completed' AND p."user_id" IS NOT NULL AND p."completed_at" IS NOT NULL
) g
JOIN "app_connections" a ON a."user_id" = g."user_id" AND a."app" = g."app" AND a."created_at" <= g."at"
JOIN "agents" ag ON ag."id" = g."agent_id"
ON CONFLICT DO NOTHING;
