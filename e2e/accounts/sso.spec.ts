import { expect, test, type Page } from "@playwright/test";
import { OIDC_PORT } from "../../playwright.config";
import { SSO_PEOPLE, storageStateOf } from "../accounts";

// Single sign-on through a real OpenID Connect provider started for the run (test/oidc/provider.ts):
// its login and consent pages, the code flow with PKCE, and a role from the `groups` claim.

async function signInWithSso(page: Page, login: string) {
  await page.goto("/sign-in?next=/tradeoffs");
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  // The provider's own pages.
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password: the test provider checks none");
  await page.locator('button[type="submit"]').click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test.describe("accounts: single sign-on", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a lead from the provider's latency-leads group arrives as an editor, back where they started", async ({
    page,
  }) => {
    await signInWithSso(page, SSO_PEOPLE.lead.login);
    await expect(page).toHaveURL(/\/tradeoffs$/);
    await expect(page.getByTestId("signed-in-as")).toHaveText(SSO_PEOPLE.lead.email);
    const me = await (await page.request.get("/api/me")).json();
    expect(me.user).toMatchObject({ email: SSO_PEOPLE.lead.email, role: "editor", name: "Sam SSO Lead" });
  });

  test("someone without a mapped group gets the default role", async ({ page }) => {
    await signInWithSso(page, SSO_PEOPLE.viewer.login);
    await expect(page.getByTestId("signed-in-as")).toHaveText(SSO_PEOPLE.viewer.email);
    const me = await (await page.request.get("/api/me")).json();
    expect(me.user.role).toBe("viewer");
  });

  test("with a role map set, a group literally called admin grants nothing", async ({ page }) => {
    await signInWithSso(page, SSO_PEOPLE.mallory.login);
    await expect(page.getByTestId("signed-in-as")).toHaveText(SSO_PEOPLE.mallory.email);
    const me = await (await page.request.get("/api/me")).json();
    expect(me.user.role).toBe("viewer");
    expect((await page.request.get("/api/users")).status()).toBe(403);
  });

  test("the provider's role change is audited; an admin is told the provider decides and cannot undo it silently", async ({
    page,
    browser,
  }) => {
    const idp = `http://127.0.0.1:${OIDC_PORT}`;
    await signInWithSso(page, SSO_PEOPLE.mover.login);
    expect((await (await page.request.get("/api/me")).json()).user.role).toBe("viewer");
    // The directory moves them into the leads' group; their next sign-in makes them an editor.
    await page.request.post(`${idp}/test/groups/${SSO_PEOPLE.mover.login}?groups=staff,latency-leads`);
    await page.context().clearCookies({ domain: "127.0.0.1" });
    await signInWithSso(page, SSO_PEOPLE.mover.login);
    expect((await (await page.request.get("/api/me")).json()).user.role).toBe("editor");

    const admin = await browser.newContext({ storageState: storageStateOf("admin") });
    try {
      const trail = (await (await admin.request.get("/api/audit?limit=200")).json()) as {
        action: string;
        actor: { name: string };
        summary: string;
      }[];
      expect(trail).toContainEqual(
        expect.objectContaining({
          action: "user.role",
          actor: expect.objectContaining({ name: "single sign-on" }),
          summary: expect.stringContaining(`${SSO_PEOPLE.mover.email} from viewer to editor`),
        }),
      );
      const users = (await (await admin.request.get("/api/users")).json()) as { id: string; email: string }[];
      const mover = users.find((u) => u.email === SSO_PEOPLE.mover.email)!;
      const demote = await admin.request.patch(`/api/users/${mover.id}`, { data: { role: "viewer" } });
      expect(demote.status()).toBe(409);
      expect((await demote.json()).error.message).toContain("decides");
      const usersPage = await admin.newPage();
      await usersPage.goto("/admin/users");
      const row = usersPage.getByTestId(`user-${SSO_PEOPLE.mover.email}`);
      await expect(row.getByText("set by single sign-on at each sign-in")).toBeVisible();
      await expect(row.getByLabel(`Role of ${SSO_PEOPLE.mover.email}`)).toBeDisabled();
    } finally {
      await admin.close();
      await page.request.post(`${idp}/test/groups/${SSO_PEOPLE.mover.login}?groups=staff`);
    }
  });

  test("a deactivated SSO user is sent back to the sign-in page, told why", async ({ page, browser }) => {
    const admin = await browser.newContext({ storageState: storageStateOf("admin") });
    try {
      await signInWithSso(page, SSO_PEOPLE.mallory.login);
      await expect(page.getByTestId("signed-in-as")).toHaveText(SSO_PEOPLE.mallory.email);
      const users = (await (await admin.request.get("/api/users")).json()) as { id: string; email: string }[];
      const mallory = users.find((u) => u.email === SSO_PEOPLE.mallory.email)!;
      expect((await admin.request.patch(`/api/users/${mallory.id}`, { data: { active: false } })).status()).toBe(200);
      await page.reload();
      await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
      await page.context().clearCookies({ domain: "127.0.0.1" });
      await signInWithSso(page, SSO_PEOPLE.mallory.login);
      await expect(page).toHaveURL(/\/sign-in\?error=account_deactivated/);
      await expect(page.getByRole("status")).toHaveText(
        "This account is deactivated. Ask an admin of Latency Budgets to reactivate it.",
      );
      expect((await admin.request.patch(`/api/users/${mallory.id}`, { data: { active: true } })).status()).toBe(200);
    } finally {
      await admin.close();
    }
  });
});
