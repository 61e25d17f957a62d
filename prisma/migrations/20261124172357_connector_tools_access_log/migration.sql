-- CreateTable
CREATE TABLE "access_log" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "agent_id" UUID,
    "agent_name" TEXT NOT NULL,
    "plane" "Plane" NOT NULL,
    "surface" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "access_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connector_actions" (
    "user_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "tool" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "connector_actions_pkey" PRIMARY KEY ("user_id","agent_id","tool","idempotency_key")
);

-- CreateIndex
CREATE INDEX "access_log_user_id_at_idx" ON "access_log"("user_id", "at");

-- CreateIndex
CREATE INDEX "access_log_at_idx" ON "access_log"("at");

-- CreateIndex
CREATE INDEX "connector_actions_created_at_idx" ON "connector_actions"("created_at");

-- AddForeignKey
ALTER TABLE "access_log" ADD CONSTRAINT "access_log_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_log" ADD CONSTRAINT "access_log_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connector_actions" ADD CONSTRAINT "connector_actions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connector_actions" ADD CONSTRAINT "connector_actions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
