-- Hosted sign-in links: agents' sign-in names and branding, return destinations, sign-in codes,
-- message lines, message-url answers kept by idempotency key, and completion callbacks.
-- CreateEnum
CREATE TYPE "MessageLineStatus" AS ENUM ('active', 'revoked');

-- CreateEnum
CREATE TYPE "CallbackStatus" AS ENUM ('pending', 'delivered', 'failed');

-- AlterEnum
ALTER TYPE "FlowWayIn" ADD VALUE 'sign_in_link';

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "publishable_key_sealed" TEXT;

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "brand_color" TEXT,
ADD COLUMN     "logo_url" TEXT,
ADD COLUMN     "sign_in_name" TEXT;

-- Existing agents: the oldest agent with a handle keeps it as its sign-in name; later ones with the
-- same handle (another developer's) get the handle and part of their id.
UPDATE "agents" AS a SET "sign_in_name" = CASE WHEN ranked.n = 1 THEN a."handle" ELSE a."handle" || '-' || left(replace(a."id"::text, '-', ''), 8) END
FROM (SELECT "id", row_number() OVER (PARTITION BY "handle" ORDER BY "created_at", "id") AS n FROM "agents") AS ranked
WHERE ranked."id" = a."id";
ALTER TABLE "agents" ALTER COLUMN "sign_in_name" SET NOT NULL;

-- CreateTable
CREATE TABLE "sign_in_return_destinations" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_return_destinations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_codes" (
    "id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_message_lines" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "channel" TEXT NOT NULL,
    "phone_hash" TEXT NOT NULL,
    "phone_last4" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "status" "MessageLineStatus" NOT NULL DEFAULT 'active',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_message_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_message_url_requests" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "answer" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_message_url_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_completion_callbacks" (
    "id" UUID NOT NULL,
    "flow_id" TEXT NOT NULL,
    "link_hash" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "url" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" "CallbackStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_completion_callbacks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_return_destinations_agent_id_plane_url_key" ON "sign_in_return_destinations"("agent_id", "plane", "url");

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_codes_code_hash_key" ON "sign_in_codes"("code_hash");

-- CreateIndex
CREATE INDEX "sign_in_codes_expires_at_idx" ON "sign_in_codes"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_message_lines_agent_id_plane_channel_phone_hash_key" ON "sign_in_message_lines"("agent_id", "plane", "channel", "phone_hash");

-- CreateIndex
CREATE INDEX "sign_in_message_url_requests_created_at_idx" ON "sign_in_message_url_requests"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_message_url_requests_agent_id_plane_idempotency_key_key" ON "sign_in_message_url_requests"("agent_id", "plane", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_completion_callbacks_flow_id_key" ON "sign_in_completion_callbacks"("flow_id");

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_completion_callbacks_link_hash_key" ON "sign_in_completion_callbacks"("link_hash");

-- CreateIndex
CREATE INDEX "sign_in_completion_callbacks_developer_id_created_at_idx" ON "sign_in_completion_callbacks"("developer_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "agents_sign_in_name_key" ON "agents"("sign_in_name");

-- AddForeignKey
ALTER TABLE "sign_in_return_destinations" ADD CONSTRAINT "sign_in_return_destinations_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sign_in_codes" ADD CONSTRAINT "sign_in_codes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sign_in_message_lines" ADD CONSTRAINT "sign_in_message_lines_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
