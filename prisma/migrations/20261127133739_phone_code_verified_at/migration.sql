-- AlterTable
ALTER TABLE "phone_codes" ADD COLUMN     "verified_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "phone_codes_phone_hash_created_at_idx" ON "phone_codes"("phone_hash", "created_at");
