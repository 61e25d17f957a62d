-- Personal MCP clients: MCP clients people install themselves, registered at POST /oauth/register or
-- known by their Client ID Metadata Document, are OAuth clients of the account below, each acting as
-- its own agent; flows they open are the "mcp_client" way in.
-- AlterEnum
ALTER TYPE "FlowWayIn" ADD VALUE 'mcp_client';

-- AlterTable
ALTER TABLE "oauth_clients" ADD COLUMN     "agent_id" UUID,
ADD COLUMN     "client_name" TEXT,
ADD COLUMN     "client_uri" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'oidc',
ADD COLUMN     "logo_uri" TEXT,
ADD COLUMN     "metadata_fetched_at" TIMESTAMPTZ(3);

-- The account personal MCP clients belong to. It holds no API keys: nothing reaches the API as it.
INSERT INTO "developers" ("id", "name") VALUES ('6d637000-0000-4000-8000-000000000001', 'Personal MCP clients') ON CONFLICT ("id") DO NOTHING;
