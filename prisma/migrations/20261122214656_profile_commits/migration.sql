-- CreateEnum
CREATE TYPE "CommitStatus" AS ENUM ('processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "commits" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "status" "CommitStatus" NOT NULL DEFAULT 'processing',
    "input" JSONB NOT NULL,
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "commits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "read_obligations" (
    "user_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "opened_at" TIMESTAMPTZ(3),
    "last_commit_at" TIMESTAMPTZ(3),

    CONSTRAINT "read_obligations_pkey" PRIMARY KEY ("user_id","agent_id")
);

-- CreateIndex
CREATE INDEX "commits_user_id_agent_id_created_at_idx" ON "commits"("user_id", "agent_id", "created_at");

-- AddForeignKey
ALTER TABLE "commits" ADD CONSTRAINT "commits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commits" ADD CONSTRAINT "commits_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "read_obligations" ADD CONSTRAINT "read_obligations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "read_obligations" ADD CONSTRAINT "read_obligations_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
