-- AlterTable
ALTER TABLE "user_profiles" ADD COLUMN     "source_counts" JSONB NOT NULL DEFAULT '{}';

-- Backfill: count what each profile already holds.
UPDATE "user_profiles" p SET "source_counts" = COALESCE(
  (SELECT jsonb_object_agg(c.source, c.n) FROM (
     SELECT "source", count(*)::int AS n FROM "memories"
      WHERE "user_id" = p."user_id" AND "suppressed_at" IS NULL GROUP BY "source") c),
  '{}'::jsonb);
