-- The early "mailbox" proof is no proof now: a mailbox proves an address only while a working
-- connection owns it, checked at each use (lib/auth/email-proof.ts). Rows still marked with it keep
-- their address, unproven by that mark, and the value leaves the enum so nothing writes it again.
UPDATE "users" SET "email_proof" = 'none' WHERE "email_proof" = 'mailbox';

-- AlterEnum: a value is removed by making the type again without it (in the migration's transaction).
CREATE TYPE "EmailProof_new" AS ENUM ('none', 'email_code', 'third_party', 'development_code');
ALTER TABLE "users" ALTER COLUMN "email_proof" DROP DEFAULT;
ALTER TABLE "users" ALTER COLUMN "email_proof" TYPE "EmailProof_new" USING ("email_proof"::text::"EmailProof_new");
ALTER TYPE "EmailProof" RENAME TO "EmailProof_old";
ALTER TYPE "EmailProof_new" RENAME TO "EmailProof";
DROP TYPE "EmailProof_old";
ALTER TABLE "users" ALTER COLUMN "email_proof" SET DEFAULT 'none';
