/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The embedded database and the wasm schema engine run in the launcher, never in a bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "@prisma/schema-engine-wasm", "pg"],
};

export default nextConfig;
