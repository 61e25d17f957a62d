-- CreateTable
CREATE TABLE "app_connections" (
    "id" UUID NOT NULL,
    "user_id" UUID,
    "flow_id" TEXT,
    "app" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "account_email" TEXT,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "access_token_sealed" TEXT NOT NULL,
    "refresh_token_sealed" TEXT,
    "access_token_expires_at" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connect_attempts" (
    "state_hash" TEXT NOT NULL,
    "flow_id" TEXT,
    "user_id" UUID,
    "app" TEXT NOT NULL,
    "verifier_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "connect_attempts_pkey" PRIMARY KEY ("state_hash")
);

-- CreateIndex
CREATE INDEX "app_connections_flow_id_idx" ON "app_connections"("flow_id");

-- CreateIndex
CREATE UNIQUE INDEX "app_connections_user_id_app_key" ON "app_connections"("user_id", "app");

-- CreateIndex
CREATE INDEX "connect_attempts_expires_at_idx" ON "connect_attempts"("expires_at");
