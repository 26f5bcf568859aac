import { expect, test as setup } from "@playwright/test";
import { E2E_USERS, storageStateOf, type E2ERole } from "./accounts";

// Signs in as each role once (through the sign-in page for the admin, through the API for the
// people the admin adds), and saves the sessions the journeys run with.

setup("the demo admin signs in through the page and adds an editor and a viewer", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(E2E_USERS.admin.email);
  await page.getByLabel("Password").fill(E2E_USERS.admin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_USERS.admin.email);
  await page.context().storageState({ path: storageStateOf("admin") });

  for (const role of ["editor", "viewer"] as const) {
    const { email, password, name } = E2E_USERS[role];
    const response = await page.request.post("/api/users", { data: { email, name, role, password } });
    expect([201, 409]).toContain(response.status());
  }
});

for (const role of ["editor", "viewer"] as E2ERole[]) {
  setup(`${role} signs in`, async ({ request }) => {
    const { email, password } = E2E_USERS[role];
    const response = await request.post("/api/auth/sign-in/email", { data: { email, password } });
    expect(response.status()).toBe(200);
    const me = await (await request.get("/api/me")).json();
    expect(me.user).toMatchObject({ email, role });
    await request.storageState({ path: storageStateOf(role) });
  });
}
