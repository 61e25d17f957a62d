// This app's own Next.js configuration (without one, Next.js would look up the directory tree and
// load the repository root's).
import type { NextConfig } from "next";

const nextConfig: NextConfig = { reactStrictMode: true, poweredByHeader: false };

export default nextConfig;
