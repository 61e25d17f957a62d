-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'member');

-- CreateTable
CREATE TABLE "dashboard_users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3),

    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "developer_members" (
    "developer_id" UUID NOT NULL,
    "dashboard_user_id" UUID NOT NULL,
    "role" "MemberRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "developer_members_pkey" PRIMARY KEY ("developer_id","dashboard_user_id")
);

-- CreateTable
CREATE TABLE "developer_invites" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "developer_invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_sign_in_codes" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "dashboard_sign_in_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "request_log" (
    "id" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "agent_id" UUID,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "error_code" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users"("email");

-- CreateIndex
CREATE INDEX "developer_members_dashboard_user_id_idx" ON "developer_members"("dashboard_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "developer_invites_token_hash_key" ON "developer_invites"("token_hash");

-- CreateIndex
CREATE INDEX "developer_invites_developer_id_idx" ON "developer_invites"("developer_id");

-- CreateIndex
CREATE INDEX "developer_invites_email_idx" ON "developer_invites"("email");

-- CreateIndex
CREATE INDEX "dashboard_sign_in_codes_email_created_at_idx" ON "dashboard_sign_in_codes"("email", "created_at");

-- CreateIndex
CREATE INDEX "dashboard_sign_in_codes_expires_at_idx" ON "dashboard_sign_in_codes"("expires_at");

-- CreateIndex
CREATE INDEX "request_log_developer_id_plane_at_idx" ON "request_log"("developer_id", "plane", "at");

-- CreateIndex
CREATE INDEX "request_log_at_idx" ON "request_log"("at");

-- AddForeignKey
ALTER TABLE "developer_members" ADD CONSTRAINT "developer_members_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "developer_members" ADD CONSTRAINT "developer_members_dashboard_user_id_fkey" FOREIGN KEY ("dashboard_user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "developer_invites" ADD CONSTRAINT "developer_invites_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
