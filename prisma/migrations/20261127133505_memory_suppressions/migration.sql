-- CreateTable
CREATE TABLE "memory_suppressions" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "requested_by" TEXT NOT NULL,
    "agent_id" UUID,
    "agent_name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_suppressions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_suppression_items" (
    "suppression_id" TEXT NOT NULL,
    "memory_id" TEXT NOT NULL,

    CONSTRAINT "memory_suppression_items_pkey" PRIMARY KEY ("suppression_id","memory_id")
);

-- CreateIndex
CREATE INDEX "memory_suppressions_user_id_created_at_idx" ON "memory_suppressions"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "memory_suppressions_agent_id_idx" ON "memory_suppressions"("agent_id");

-- CreateIndex
CREATE INDEX "memory_suppression_items_memory_id_idx" ON "memory_suppression_items"("memory_id");

-- AddForeignKey
ALTER TABLE "memory_suppressions" ADD CONSTRAINT "memory_suppressions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_suppressions" ADD CONSTRAINT "memory_suppressions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_suppression_items" ADD CONSTRAINT "memory_suppression_items_suppression_id_fkey" FOREIGN KEY ("suppression_id") REFERENCES "memory_suppressions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_suppression_items" ADD CONSTRAINT "memory_suppression_items_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Memories hidden before suppressions were recorded: one suppression per forget (the rows one forget
-- hid share its instant), of unknown origin, so that each can still be seen and restored.
INSERT INTO "memory_suppressions" ("id", "user_id", "requested_by", "created_at")
SELECT 'sup_' || substr(md5("user_id"::text || '/' || "suppressed_at"::text), 1, 24), "user_id", 'earlier', "suppressed_at"
  FROM "memories" WHERE "suppressed_at" IS NOT NULL
 GROUP BY "user_id", "suppressed_at";

INSERT INTO "memory_suppression_items" ("suppression_id", "memory_id")
SELECT 'sup_' || substr(md5(m."user_id"::text || '/' || m."suppressed_at"::text), 1, 24), m."id"
  FROM "memories" m WHERE m."suppressed_at" IS NOT NULL;
