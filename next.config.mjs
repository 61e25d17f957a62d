// Next.js configuration. Native and WASM server packages stay external to the bundle.
export const FRAME_HEADERS = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The hosted flow's import screen takes an assistant's conversations.json (up to 20 MB) through a server
  // action. Every request passes proxy.ts, which buffers bodies up to proxyClientMaxBodySize (10 MB by
  // default, silently cutting the rest): both limits take the advertised size, with room for the form.
  experimental: { serverActions: { bodySizeLimit: "21mb" }, proxyClientMaxBodySize: "21mb" },
  // No page of the service may be framed (clickjacking of the sign-in and consent screens).
  async headers() {
    return [{ source: "/:path*", headers: FRAME_HEADERS }];
  },
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "pino",
    "ioredis",
    "rate-limiter-flexible",
    "pg-boss",
    // One metrics registry per process, read by prom-client's cluster aggregator (lib/platform/metrics.ts).
    "prom-client",
    // Traces: one API per process, one SDK loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
    "@opentelemetry/api",
    // Bundles the MCP App cards' host script where no build wrote it (lib/mcp/cards/host-script.ts).
    "esbuild",
  ],
};

export default nextConfig;
