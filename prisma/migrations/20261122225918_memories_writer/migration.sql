/*
  Warnings:

  - A unique constraint covering the columns `[user_id,source,writer_id,key]` on the table `memories` will be added. If there are existing duplicate values, this will fail.

*/
-- DropIndex
DROP INDEX "memories_user_id_source_key_key";

-- AlterTable
ALTER TABLE "memories" ADD COLUMN     "writer_id" TEXT NOT NULL DEFAULT '';

-- Backfill: the writing agent where there was one. Rows that were unique per (user, source, key)
-- stay unique with the writer added.
UPDATE "memories" SET "writer_id" = COALESCE("agent_id"::text, '');

-- CreateIndex
CREATE UNIQUE INDEX "memories_user_id_source_writer_id_key_key" ON "memories"("user_id", "source", "writer_id", "key");
