-- CreateEnum
CREATE TYPE "KeyMaker" AS ENUM ('dashboard', 'command_line', 'sandbox');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "created_by_dashboard_user_id" UUID,
ADD COLUMN     "created_via" "KeyMaker";

-- AlterTable
ALTER TABLE "dashboard_users" ADD COLUMN     "session_version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "session_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "callback_secrets" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "generation" INTEGER NOT NULL,
    "sealed" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retires_at" TIMESTAMPTZ(3),

    CONSTRAINT "callback_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "callback_secrets_developer_id_plane_generation_key" ON "callback_secrets"("developer_id", "plane", "generation");

-- CreateIndex
CREATE INDEX "api_keys_created_by_dashboard_user_id_idx" ON "api_keys"("created_by_dashboard_user_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_dashboard_user_id_fkey" FOREIGN KEY ("created_by_dashboard_user_id") REFERENCES "dashboard_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_secrets" ADD CONSTRAINT "callback_secrets_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every developer that exists now keeps the secret its receivers verify today: its first stored
-- secret, in each plane, is the one derived from SERVICE_SECRET (sealed NULL).
INSERT INTO "callback_secrets" ("id", "developer_id", "plane", "generation", "sealed")
SELECT gen_random_uuid(), d."id", p."plane", 1, NULL
FROM "developers" d CROSS JOIN (VALUES ('live'::"Plane"), ('test'::"Plane")) AS p("plane");
