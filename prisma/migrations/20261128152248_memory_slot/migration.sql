-- AlterTable
ALTER TABLE "memories" ADD COLUMN     "slot" TEXT;
