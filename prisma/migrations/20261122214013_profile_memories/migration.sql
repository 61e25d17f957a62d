-- CreateTable
CREATE TABLE "memories" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "agent_id" UUID,
    "written_by" TEXT NOT NULL,
    "box" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "import_id" TEXT,
    "provenance" JSONB NOT NULL DEFAULT '{}',
    "learned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "said_at" TIMESTAMPTZ(3),
    "suppressed_at" TIMESTAMPTZ(3),
    -- Generated, so every write keeps the full-text index current. Prisma reads the expression back
    -- as the column's default (schema.prisma declares it so), which keeps later diffs clean.
    "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED,

    CONSTRAINT "memories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "imports" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "agent_id" UUID,
    "memory_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_profiles" (
    "user_id" UUID NOT NULL,
    "identity" JSONB NOT NULL DEFAULT '{}',
    "preferences" JSONB NOT NULL DEFAULT '[]',
    "highlights" JSONB NOT NULL DEFAULT '[]',
    "summary" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_profiles_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "memories_user_id_learned_at_idx" ON "memories"("user_id", "learned_at");

-- CreateIndex
CREATE INDEX "memories_user_id_box_idx" ON "memories"("user_id", "box");

-- CreateIndex
CREATE INDEX "memories_user_id_key_idx" ON "memories"("user_id", "key");

-- CreateIndex
CREATE INDEX "memories_import_id_idx" ON "memories"("import_id");

-- CreateIndex
CREATE INDEX "memories_search_vector_idx" ON "memories" USING GIN ("search_vector");

-- CreateIndex
CREATE UNIQUE INDEX "memories_user_id_source_key_key" ON "memories"("user_id", "source", "key");

-- CreateIndex
CREATE INDEX "imports_user_id_created_at_idx" ON "imports"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "memories" ADD CONSTRAINT "memories_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memories" ADD CONSTRAINT "memories_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memories" ADD CONSTRAINT "memories_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imports" ADD CONSTRAINT "imports_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
