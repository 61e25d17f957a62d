-- CreateEnum
CREATE TYPE "ImportJobStatus" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "import_jobs" (
    "id" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "mode" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "body_hash" TEXT NOT NULL,
    "status" "ImportJobStatus" NOT NULL DEFAULT 'queued',
    "accepted_profiles" INTEGER NOT NULL,
    "estimated_message_count" INTEGER NOT NULL,
    "estimated_input_chars" INTEGER NOT NULL,
    "profiles_imported" INTEGER NOT NULL DEFAULT 0,
    "profiles_failed" INTEGER NOT NULL DEFAULT 0,
    "profiles_cancelled" INTEGER NOT NULL DEFAULT 0,
    "messages_processed" INTEGER NOT NULL DEFAULT 0,
    "memories_written" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested_at" TIMESTAMPTZ(3),
    "lease_holder" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_job_profiles" (
    "job_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "external_id" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "message_count" INTEGER NOT NULL,
    "input_chars" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "user_id" UUID,
    "import_id" TEXT,
    "memories_written" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,

    CONSTRAINT "import_job_profiles_pkey" PRIMARY KEY ("job_id","position")
);

-- CreateTable
CREATE TABLE "imported_profiles" (
    "developer_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "external_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imported_profiles_pkey" PRIMARY KEY ("developer_id","plane","external_id")
);

-- CreateIndex
CREATE INDEX "import_jobs_developer_id_plane_status_idx" ON "import_jobs"("developer_id", "plane", "status");

-- CreateIndex
CREATE INDEX "import_jobs_status_lease_until_idx" ON "import_jobs"("status", "lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "import_jobs_developer_id_agent_id_plane_idempotency_key_key" ON "import_jobs"("developer_id", "agent_id", "plane", "idempotency_key");

-- CreateIndex
CREATE INDEX "import_job_profiles_job_id_status_position_idx" ON "import_job_profiles"("job_id", "status", "position");

-- CreateIndex
CREATE UNIQUE INDEX "import_job_profiles_job_id_external_id_key" ON "import_job_profiles"("job_id", "external_id");

-- CreateIndex
CREATE INDEX "imported_profiles_job_id_idx" ON "imported_profiles"("job_id");

-- AddForeignKey
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_job_profiles" ADD CONSTRAINT "import_job_profiles_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "import_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
