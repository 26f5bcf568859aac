import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDatabase } from "@/test/databases";
import { startInstance, type AppInstance } from "@/test/instances";

// `npm start` on a team's empty PostgreSQL: the launcher applies the migrations and adds nothing.
// The first-run page offers the examples; an admin adds them once, a second time is refused.

const ADMIN = { email: "admin@first-run.test", password: "first-run-admin-password" };
let database: Awaited<ReturnType<typeof freshDatabase>>;
let app: AppInstance;

beforeAll(async () => {
  database = await freshDatabase("postgres", inject("databaseUrl"));
  app = await startInstance({
    DATABASE_URL: database.url,
    LB_DATABASE_KIND: "postgres",
    LB_AUTH_SECRET: "first-run-test-secret-0123456789abcdefghij",
    LB_ANONYMOUS_VIEW: "true",
    LB_DEMO_ADMIN_EMAIL: ADMIN.email,
    LB_DEMO_ADMIN_PASSWORD: ADMIN.password,
    PROMETHEUS_URL: "",
  });
}, 180_000);

afterAll(async () => {
  await app?.terminate();
  await database?.drop();
});

describe("npm start on an empty database", () => {
  it("starts with no services, and the status page offers the examples and the wizard", async () => {
    expect(await (await fetch(`${app.url}/api/services`)).json()).toEqual([]);
    expect(app.log()).not.toMatch(/Seeded services/);
    const page = await (await fetch(app.url)).text();
    expect(page).toContain("No services yet");
    expect(page).toContain("the examples");
  });

  it("adds the three examples for a signed-in admin, once", async () => {
    const signIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: "POST",
      // As a browser at the app sends it (better-auth refuses a fetch that names no origin).
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify(ADMIN),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.includes("session_token="))!
      .split(";")[0]!;
    const add = () => fetch(`${app.url}/api/examples`, { method: "POST", headers: { cookie } });

    expect((await fetch(`${app.url}/api/examples`, { method: "POST" })).status).toBe(401);
    const first = await add();
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ created: ["chat-api", "rag-answer", "rag-chatbot"] });
    const second = await add();
    expect(second.status).toBe(409);
    expect((await second.json()).error.message).toMatch(/here already/);
    const slugs = ((await (await fetch(`${app.url}/api/services`)).json()) as { slug: string }[]).map((s) => s.slug);
    expect(slugs.sort()).toEqual(["chat-api", "rag-answer", "rag-chatbot"]);
  });
});
