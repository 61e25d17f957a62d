-- AlterEnum
ALTER TYPE "FlowWayIn" ADD VALUE 'partner';

-- AlterTable
ALTER TABLE "developers" ADD COLUMN     "partner_phone_first" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "flow_sessions" ADD COLUMN     "partner_session_id" TEXT;

-- CreateTable
CREATE TABLE "partner_sessions" (
    "id" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "flow" TEXT NOT NULL,
    "partner_ref" TEXT NOT NULL,
    "sources" JSONB NOT NULL,
    "required" JSONB NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'open',
    "user_id" UUID,
    "import_ids" JSONB NOT NULL DEFAULT '[]',
    "connected" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "partner_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "partner_sessions_developer_id_agent_id_plane_created_at_idx" ON "partner_sessions"("developer_id", "agent_id", "plane", "created_at");

-- CreateIndex
CREATE INDEX "flow_sessions_partner_session_id_idx" ON "flow_sessions"("partner_session_id");

-- AddForeignKey
ALTER TABLE "flow_sessions" ADD CONSTRAINT "flow_sessions_partner_session_id_fkey" FOREIGN KEY ("partner_session_id") REFERENCES "partner_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
