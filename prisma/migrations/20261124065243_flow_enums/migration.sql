-- The flow's way in, status and screen hold one of a fixed set of values: enums, converted in place
-- (every stored value is one of them), keeping the rows and the column defaults.

-- CreateEnum
CREATE TYPE "FlowWayIn" AS ENUM ('oidc', 'profile_signup', 'connect');

-- CreateEnum
CREATE TYPE "FlowStatus" AS ENUM ('active', 'completed', 'declined');

-- CreateEnum
CREATE TYPE "FlowScreen" AS ENUM ('mailbox', 'import', 'app', 'apps', 'capability', 'phone', 'code', 'receipt');

-- AlterTable
ALTER TABLE "flow_sessions" ALTER COLUMN "way_in" TYPE "FlowWayIn" USING "way_in"::"FlowWayIn";
ALTER TABLE "flow_sessions" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "flow_sessions" ALTER COLUMN "status" TYPE "FlowStatus" USING "status"::"FlowStatus";
ALTER TABLE "flow_sessions" ALTER COLUMN "status" SET DEFAULT 'active';
ALTER TABLE "flow_sessions" ALTER COLUMN "screen" DROP DEFAULT;
ALTER TABLE "flow_sessions" ALTER COLUMN "screen" TYPE "FlowScreen" USING "screen"::"FlowScreen";
ALTER TABLE "flow_sessions" ALTER COLUMN "screen" SET DEFAULT 'import';
