import { join } from "node:path";

// Who the end-to-end run signs in as. The admin is the demo's (the launcher creates it); the
// setup project adds the others through the users API and saves each one's session.

export const E2E_USERS = {
  admin: { email: "admin@example.com", password: "latency-budgets-demo", name: "Demo admin" },
  editor: { email: "lead@e2e.example", password: "editor-password-e2e", name: "E2E lead" },
  viewer: { email: "oncall@e2e.example", password: "viewer-password-e2e", name: "E2E on-call" },
} as const;

export type E2ERole = keyof typeof E2E_USERS;

/** The saved session (cookies) of a role, in the run's data folder. */
export function storageStateOf(role: E2ERole): string {
  return join(process.env.E2E_DATA_DIR ?? ".", `session-${role}.json`);
}

/** Single sign-on people at the test provider (test/oidc/provider.ts): login name → who they become. */
export const SSO_PEOPLE = {
  lead: { login: "sso-lead", email: "sso-lead@sso.example", role: "editor" },
  viewer: { login: "sso-viewer", email: "sso-viewer@sso.example", role: "viewer" },
  mallory: { login: "sso-mallory", email: "sso-mallory@sso.example", role: "viewer" },
  mover: { login: "sso-mover", email: "sso-mover@sso.example", role: "viewer" },
} as const;
