-- CreateEnum
CREATE TYPE "ImportTier" AS ENUM ('free', 'pro', 'scale', 'enterprise');

-- CreateEnum
CREATE TYPE "KeyKind" AS ENUM ('secret', 'publishable');

-- CreateEnum
CREATE TYPE "Plane" AS ENUM ('live', 'test');

-- CreateEnum
CREATE TYPE "EmailProof" AS ENUM ('none', 'mailbox', 'email_code', 'third_party');

-- CreateTable
CREATE TABLE "developers" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "import_tier" "ImportTier" NOT NULL DEFAULT 'free',
    "sandbox" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "developers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "kind" "KeyKind" NOT NULL,
    "plane" "Plane" NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "handle" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "developer_id" UUID,
    "phone_hash" TEXT,
    "phone_last4" TEXT,
    "phone_scope" TEXT NOT NULL DEFAULT '',
    "synthetic" BOOLEAN NOT NULL DEFAULT false,
    "email" TEXT,
    "email_proof" "EmailProof" NOT NULL DEFAULT 'none',
    "name" TEXT,
    "given_name" TEXT,
    "family_name" TEXT,
    "picture" TEXT,
    "birthdate" TEXT,
    "location" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "external_user_ids" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "external_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "external_user_ids_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_approvals" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "approved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approved_origins" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "origin" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approved_origins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_scenarios" (
    "id" UUID NOT NULL,
    "developer_id" UUID NOT NULL,
    "scenario" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_scenarios_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_developer_id_idx" ON "api_keys"("developer_id");

-- CreateIndex
CREATE INDEX "agents_developer_id_active_created_at_idx" ON "agents"("developer_id", "active", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "agents_developer_id_handle_key" ON "agents"("developer_id", "handle");

-- CreateIndex
CREATE INDEX "users_developer_id_idx" ON "users"("developer_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_plane_phone_scope_phone_hash_key" ON "users"("plane", "phone_scope", "phone_hash");

-- CreateIndex
CREATE INDEX "external_user_ids_user_id_idx" ON "external_user_ids"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "external_user_ids_developer_id_plane_external_id_key" ON "external_user_ids"("developer_id", "plane", "external_id");

-- CreateIndex
CREATE INDEX "agent_approvals_agent_id_idx" ON "agent_approvals"("agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_approvals_user_id_agent_id_key" ON "agent_approvals"("user_id", "agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "approved_origins_developer_id_origin_key" ON "approved_origins"("developer_id", "origin");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_scenarios_developer_id_scenario_key" ON "sandbox_scenarios"("developer_id", "scenario");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agents" ADD CONSTRAINT "agents_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "external_user_ids" ADD CONSTRAINT "external_user_ids_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_approvals" ADD CONSTRAINT "agent_approvals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_approvals" ADD CONSTRAINT "agent_approvals_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approved_origins" ADD CONSTRAINT "approved_origins_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sandbox_scenarios" ADD CONSTRAINT "sandbox_scenarios_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
