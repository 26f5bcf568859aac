// Headers every response carries, static files included; the Content-Security-Policy, which
// needs a fresh nonce per page, is set in proxy.ts.
const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The embedded database and the wasm schema engine run in the launcher, never in a bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
    "pg",
    // One metrics registry for the app server (scripts/app-server.ts) and the routes.
    "prom-client",
  ],
  async headers() {
    const https = process.env.LB_PUBLIC_URL?.startsWith("https:");
    return [
      {
        source: "/:path*",
        headers: [
          ...SECURITY_HEADERS,
          ...(https ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : []),
        ],
      },
    ];
  },
};

export default nextConfig;
