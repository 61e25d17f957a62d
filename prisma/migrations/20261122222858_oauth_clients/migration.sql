-- CreateTable
CREATE TABLE "oauth_clients" (
    "id" TEXT NOT NULL,
    "developer_id" UUID NOT NULL,
    "plane" "Plane" NOT NULL,
    "token_endpoint_auth_method" TEXT NOT NULL,
    "secret_hash" TEXT,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_redirect_uris" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_redirect_uris_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "oauth_clients_developer_id_plane_token_endpoint_auth_method_idx" ON "oauth_clients"("developer_id", "plane", "token_endpoint_auth_method");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_redirect_uris_client_id_uri_key" ON "oauth_redirect_uris"("client_id", "uri");

-- AddForeignKey
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_redirect_uris" ADD CONSTRAINT "oauth_redirect_uris_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
