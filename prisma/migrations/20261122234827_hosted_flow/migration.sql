-- AlterTable
ALTER TABLE "flow_sessions" ADD COLUMN     "brought_in" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "phone_hash" TEXT,
ADD COLUMN     "phone_last4" TEXT,
ADD COLUMN     "receipt" JSONB,
ADD COLUMN     "screen" TEXT NOT NULL DEFAULT 'import',
ADD COLUMN     "sign_in_first" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "developer_id" DROP NOT NULL,
ALTER COLUMN "agent_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "phone_codes" (
    "id" UUID NOT NULL,
    "phone_hash" TEXT NOT NULL,
    "plane" "Plane" NOT NULL,
    "phone_scope" TEXT NOT NULL DEFAULT '',
    "code_hash" TEXT NOT NULL,
    "flow_id" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "phone_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms_outbox" (
    "id" UUID NOT NULL,
    "phone_hash" TEXT NOT NULL,
    "phone_last4" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sms_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "phone_codes_plane_phone_scope_phone_hash_created_at_idx" ON "phone_codes"("plane", "phone_scope", "phone_hash", "created_at");

-- CreateIndex
CREATE INDEX "sms_outbox_created_at_idx" ON "sms_outbox"("created_at");

-- CreateIndex
CREATE INDEX "sms_outbox_phone_hash_created_at_idx" ON "sms_outbox"("phone_hash", "created_at");
