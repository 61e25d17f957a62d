-- btree_gin lets the full-text index lead with user_id, so a search reads only that user's entries.
CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public;

-- DropIndex
DROP INDEX "memories_search_vector_idx";

-- CreateIndex
-- The operator class is named with the schema btree_gin actually lives in: a database may have
-- installed it elsewhere before, and IF NOT EXISTS then leaves it there.
DO $$
DECLARE ext_schema text;
BEGIN
  SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'btree_gin';
  EXECUTE format('CREATE INDEX "memories_user_id_search_vector_idx" ON "memories" USING GIN ("user_id" %I.uuid_ops, "search_vector")', ext_schema);
END $$;
