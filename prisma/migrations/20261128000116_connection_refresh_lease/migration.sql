-- AlterTable
ALTER TABLE "app_connections" ADD COLUMN     "refresh_lease_until" TIMESTAMPTZ(3);
