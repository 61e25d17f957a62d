// Next.js configuration. Native and WASM server packages stay external to the bundle.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The hosted flow's import screen takes an assistant's conversations.json (up to 20 MB) through a server action.
  experimental: { serverActions: { bodySizeLimit: "21mb" } },
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "pino",
    "ioredis",
    "rate-limiter-flexible",
    "pg-boss",
  ],
};

export default nextConfig;
