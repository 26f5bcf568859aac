import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "@/test/databases";
import { startInstance, type AppInstance } from "@/test/instances";

// With LB_ANONYMOUS_VIEW=true, every page as an anonymous viewer sees it, rendered by the
// production build (HTML and the React payload it carries): after an editor with an email and a
// named API token changed budgets, notes, the catalog and experiments, no page holds the email or
// the token's name, and none holds the password in PROMETHEUS_URL (a refused port here, so every
// live view renders its error).

const ADMIN = { email: "admin@pages.test", password: "pages-admin-password-0123" };
const EDITOR = { email: "eddie.editor@corp.example", name: "Eddie Editor", password: "eddie-editor-password-0123" };
const TOKEN_NAME = "secret-ci-token-name";
const SECRETS = [EDITOR.email, TOKEN_NAME, "s3cretpw"];

let database: Awaited<ReturnType<typeof freshDatabase>>;
let app: AppInstance;

async function signIn(credentials: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${app.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify(credentials),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .find((c) => c.includes("session_token="))!
    .split(";")[0]!;
}

async function send(path: string, auth: Record<string, string>, method: string, body?: unknown) {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...auth, origin: app.url, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : null;
}

beforeAll(async () => {
  database = await freshDatabase("postgres", inject("databaseUrl"));
  app = await startInstance({
    DATABASE_URL: database.url,
    LB_DATABASE_KIND: "postgres",
    LB_AUTH_SECRET: "anonymous-pages-test-secret-0123456789abcdef",
    LB_ANONYMOUS_VIEW: "true",
    LB_DEMO_ADMIN_EMAIL: ADMIN.email,
    LB_DEMO_ADMIN_PASSWORD: ADMIN.password,
    PROMETHEUS_URL: "http://reader:s3cretpw@127.0.0.1:1",
  });
}, 180_000);

afterAll(async () => {
  await app?.terminate();
  await database?.drop();
});

describe("every page, anonymously", () => {
  it("shows authors by name: no email, no token name, no Prometheus password", async () => {
    const admin = { cookie: await signIn(ADMIN) };
    await send("/api/examples", admin, "POST");
    await send("/api/users", admin, "POST", { ...EDITOR, role: "editor" });
    const editor = { cookie: await signIn(EDITOR) };
    const { token } = await send("/api/tokens", editor, "POST", {
      name: TOKEN_NAME,
      scopes: ["read", "write:budgets", "write:experiments", "write:annotations"],
      expiresInDays: 30,
    });
    const ci = { authorization: `Bearer ${token}` };

    // The token saves a budget and posts a deploy; the person notes, adds to the catalog, decides.
    const budget = await send("/api/services/rag-answer/budget", ci, "GET");
    await send("/api/services/rag-answer/budget", ci, "PUT", { ...budget, targetMs: budget.targetMs + 10 });
    await send("/api/annotations", ci, "POST", { service: "rag-answer", text: "deploy 42", kind: "deploy" });
    await send("/api/annotations", editor, "POST", { service: "rag-answer", text: "a note" });
    await send("/api/optimizations", editor, "POST", {
      name: "Smaller reranker",
      component: "Rerank",
      savingMs: -30,
      costPct: -5,
    });
    const experiment = await send("/api/experiments", ci, "POST", {
      service: "rag-answer",
      name: "Reranker A/B",
      variants: [
        { name: "control", weight: 1 },
        { name: "treatment", weight: 1 },
      ],
    });
    await send(`/api/experiments/${experiment.id}/status`, editor, "PUT", {
      version: experiment.version,
      status: "decided",
      decision: "ship",
    });
    // Signed in, the author is the email (so the secrets are really there to leak).
    expect((await send("/api/services/rag-answer/budget", editor, "GET")).updatedBy).toContain(TOKEN_NAME);

    const pages = [
      "/",
      "/tradeoffs",
      "/experiments",
      `/experiments/${experiment.id}`,
      ...["", "/waterfall", "/budget", "/history", "/slos", "/alerts", "/kpis", "/capacity", "/report", "/whatif"].map(
        (tab) => `/services/rag-answer${tab}`,
      ),
    ];
    for (const page of pages) {
      const response = await fetch(`${app.url}${page}`);
      const html = await response.text();
      expect(response.status, `${page}: ${html.slice(0, 300)}`).toBe(200);
      for (const secret of SECRETS) expect(html, `${page} shows ${secret} to nobody`).not.toContain(secret);
    }
    const budgetPage = await (await fetch(`${app.url}/services/rag-answer/budget`)).text();
    expect(budgetPage).toContain("Eddie Editor (API token)");
  });
});
