-- AlterTable
ALTER TABLE "access_log" ADD COLUMN     "conversation" TEXT,
ADD COLUMN     "turn" TEXT;
