-- AlterTable
ALTER TABLE "flow_sessions" ADD COLUMN     "connect_link_id" TEXT;

-- CreateTable
CREATE TABLE "connect_links" (
    "id" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "user_id" UUID,
    "external_id" TEXT,
    "app" TEXT,
    "capability" TEXT,
    "purpose" TEXT,
    "client_name" TEXT,
    "return_url" TEXT,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "approved_at" TIMESTAMPTZ(3),

    CONSTRAINT "connect_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "capability_grants" (
    "user_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "capability" TEXT NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "capability_grants_pkey" PRIMARY KEY ("user_id","agent_id","capability")
);

-- CreateIndex
CREATE INDEX "connect_links_developer_id_agent_id_plane_expires_at_idx" ON "connect_links"("developer_id", "agent_id", "plane", "expires_at");
