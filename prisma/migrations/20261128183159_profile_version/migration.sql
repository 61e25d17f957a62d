-- AlterTable
ALTER TABLE "users" ADD COLUMN     "profile_version" INTEGER NOT NULL DEFAULT 0;

-- users.profile_version rises whenever anything GET /v1/profile composes changes, so a composed read
-- made at one version can be reused while the row still holds it (lib/profile/read.ts). A change to
-- the row itself raises it at once; a change to a table the read draws from raises it at commit
-- (deferred constraint triggers), so those transactions lock the users row last. It counts modulo the
-- largest integer: a read is reused only at the very version it was made at.
CREATE FUNCTION "profile_version_own"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."profile_version" = OLD."profile_version" THEN
    NEW."profile_version" := (OLD."profile_version" + 1) % 2147483647;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "users_profile_version" BEFORE UPDATE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "profile_version_own"();

-- The person a row belongs to (both, should a row move from one to another).
CREATE FUNCTION "profile_version_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "users" SET "profile_version" = ("profile_version" + 1) % 2147483647 WHERE "id" = OLD."user_id";
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."user_id" IS DISTINCT FROM OLD."user_id") THEN
    UPDATE "users" SET "profile_version" = ("profile_version" + 1) % 2147483647 WHERE "id" = NEW."user_id";
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "user_profiles_profile_version" AFTER INSERT OR UPDATE OR DELETE ON "user_profiles"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "profile_version_of_user"();
CREATE CONSTRAINT TRIGGER "agent_approvals_profile_version" AFTER INSERT OR UPDATE OR DELETE ON "agent_approvals"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "profile_version_of_user"();
CREATE CONSTRAINT TRIGGER "imports_profile_version" AFTER INSERT OR UPDATE OR DELETE ON "imports"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "profile_version_of_user"();
-- A connection's tokens are refreshed often and show nowhere: only what the profile lists counts.
CREATE CONSTRAINT TRIGGER "app_connections_profile_version" AFTER INSERT OR DELETE ON "app_connections"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "profile_version_of_user"();
CREATE CONSTRAINT TRIGGER "app_connections_profile_version_update" AFTER UPDATE ON "app_connections"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."app" IS DISTINCT FROM NEW."app" OR OLD."provider" IS DISTINCT FROM NEW."provider"
     OR OLD."account_id" IS DISTINCT FROM NEW."account_id" OR OLD."account_email" IS DISTINCT FROM NEW."account_email"
     OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "profile_version_of_user"();

-- An agent's name, logo, colour or state shows in the profile of everyone who approved it.
CREATE FUNCTION "profile_version_of_agent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "profile_version" = ("profile_version" + 1) % 2147483647
   WHERE "id" IN (SELECT "user_id" FROM "agent_approvals" WHERE "agent_id" = NEW."id");
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "agents_profile_version" AFTER UPDATE ON "agents"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."handle" IS DISTINCT FROM NEW."handle" OR OLD."display_name" IS DISTINCT FROM NEW."display_name"
     OR OLD."active" IS DISTINCT FROM NEW."active" OR OLD."sign_in_name" IS DISTINCT FROM NEW."sign_in_name"
     OR OLD."logo_url" IS DISTINCT FROM NEW."logo_url" OR OLD."brand_color" IS DISTINCT FROM NEW."brand_color"
     OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "profile_version_of_agent"();
