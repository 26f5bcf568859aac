import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// Imports point one way: lib/domain ← lib/db, lib/prometheus, lib/schemas ← lib/services ←
// app, components (and lib/queries for the browser). Each folder lists what it may not import;
// a path is matched whether written as "@/lib/x" or as a relative "../x".
const layer = (...names) => `^(@/|(\\.\\./)+)(${names.join("|")})(/|$)`;
const rule = (message, regexes, { paths = [], typeOnly = [], names = [] } = {}) => ({
  "@typescript-eslint/no-restricted-imports": [
    "error",
    {
      paths: [
        ...paths.map((name) => ({ name, message })),
        ...names.map(([name, importNames, why]) => ({ name, importNames, message: why })),
      ],
      patterns: [
        ...regexes.map((regex) => ({ regex, message })),
        ...typeOnly.map((regex) => ({ regex, message, allowTypeImports: true })),
      ],
    },
  ],
});
const FRAMEWORKS = ["react", "react-dom", "next", "pg", "server-only", "@prisma/client", "@prisma/adapter-pg"];
const UI = layer("app", "components", "lib/queries", "lib/api", "queries", "api");

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/generated/**",
      "playwright-report/**",
      "test-results/**",
      ".data/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/domain/**"],
    ignores: ["**/*.test.ts"],
    rules: rule(
      "lib/domain is pure TypeScript: no I/O, no framework, nothing from the layers above it.",
      [
        layer(
          "lib/db",
          "lib/prometheus",
          "lib/schemas",
          "lib/services",
          "lib/env",
          "db",
          "prometheus",
          "schemas",
          "services",
          "env",
        ),
        UI,
        "^next/",
        "^@prisma/",
        "^node:",
      ],
      { paths: FRAMEWORKS },
    ),
  },
  {
    files: ["lib/db/**", "lib/prometheus/**", "lib/schemas/**"],
    ignores: ["**/*.test.ts"],
    rules: rule("lib/db, lib/prometheus and lib/schemas build on lib/domain only; lib/services combines them.", [
      "^@/lib/(db|prometheus|schemas|services)(/|$)",
      "^(\\.\\./)+(services|prometheus|schemas|db)(/|$)",
      UI,
    ]),
  },
  {
    // Infrastructure the app's HTTP server (scripts/app-server.ts) loads outside Next: no app layers.
    files: ["lib/net/**", "lib/observability/**"],
    ignores: ["**/*.test.ts"],
    rules: rule("lib/net and lib/observability stand alone: the app server loads them outside Next's bundles.", [
      layer("lib/db", "lib/prometheus", "lib/schemas", "lib/services", "lib/env", "lib/api"),
      UI,
      "^server-only$",
    ]),
  },
  {
    files: ["lib/services/**"],
    ignores: ["**/*.test.ts"],
    rules: rule("lib/services is called by app and components, never the other way.", [UI]),
  },
  {
    files: ["components/**", "lib/queries/**"],
    rules: rule(
      "The browser reaches data through the JSON API: components may use lib/services' types, never lib/db, lib/prometheus or server code.",
      [layer("lib/db", "lib/prometheus", "lib/api", "lib/env")],
      { typeOnly: [layer("lib/services")] },
    ),
  },
  {
    files: ["app/**"],
    ignores: ["**/*.test.ts"],
    rules: rule(
      "Pages and route handlers call lib/services; they never reach the database or Prometheus directly.",
      [layer("lib/db", "lib/prometheus")],
      {
        // Rows with authors as stored (emails, token names) stay in lib/services: pages and routes
        // read views that show authors as their viewer may see them.
        names: [
          [
            "@/lib/services/services",
            ["getServiceOrThrow"],
            "The service's row carries authors as stored: read getServiceSummary, or getBudget with the viewer.",
          ],
        ],
      },
    ),
  },
];

export default config;
