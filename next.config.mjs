// Next.js configuration. Native and WASM server packages stay external to the bundle.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
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
