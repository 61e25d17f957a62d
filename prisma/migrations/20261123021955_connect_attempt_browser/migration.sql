-- Connection attempts are bound to the browser that started them. Attempts in progress (they live
-- ten minutes) have no binding and are dropped: the person starts connecting again.
DELETE FROM "connect_attempts";

-- AlterTable
ALTER TABLE "connect_attempts" ADD COLUMN     "browser_hash" TEXT NOT NULL;
