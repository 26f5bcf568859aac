import { expect, test } from "@playwright/test";
import { E2E_USERS, SSO_PEOPLE } from "../accounts";

// Runs after every journey: the audit trail holds each kind of step the run took, with who did
// it, and the admin reads it on the audit page.

type Entry = { action: string; actor: { kind: string; name: string }; service: string | null; summary: string };

async function wholeTrail(request: import("@playwright/test").APIRequestContext): Promise<Entry[]> {
  const entries: (Entry & { id: string })[] = [];
  for (let before = ""; ;) {
    const page = (await (
      await request.get(`/api/audit?limit=200${before && `&before=${before}`}`)
    ).json()) as (Entry & { id: string })[];
    entries.push(...page);
    if (page.length < 200) return entries;
    before = page.at(-1)!.id;
  }
}

test.describe("audit: every step of the run is on record", () => {
  test("sign-ins, failures, people, roles, tokens and every kind of change, with their authors", async ({
    request,
  }) => {
    const trail = await wholeTrail(request);
    const by = (action: string, who?: string) =>
      trail.filter((e) => e.action === action && (!who || e.actor.name.startsWith(who)));
    const { admin, editor, viewer } = E2E_USERS;

    for (const email of [admin.email, editor.email, viewer.email, SSO_PEOPLE.lead.email, SSO_PEOPLE.viewer.email])
      expect(by("auth.sign-in", email), `${email} signed in`).not.toHaveLength(0);
    expect(
      trail.some((e) => e.action === "auth.sign-in-failed" && e.summary === `Failed sign-in for ${viewer.email}`),
    ).toBe(true);
    expect(by("user.create", admin.email).map((e) => e.summary)).toEqual(
      expect.arrayContaining([`Added ${editor.email} as editor`, `Added ${viewer.email} as viewer`]),
    );
    expect(by("user.create", "single sign-on").length).toBeGreaterThanOrEqual(2);
    expect(by("user.role", admin.email)).not.toHaveLength(0);
    expect(by("user.role", "single sign-on")).not.toHaveLength(0);
    for (const action of ["user.deactivate", "user.reactivate", "user.password-reset", "user.sign-out-everywhere"])
      expect(by(action, admin.email), action).not.toHaveLength(0);
    expect(by("user.password-change")).not.toHaveLength(0);
    expect(by("auth.sign-out")).not.toHaveLength(0);
    expect(by("token.create", editor.email)).not.toHaveLength(0);
    expect(by("token.revoke", editor.email)).not.toHaveLength(0);
    expect(by("service.create", editor.email)).not.toHaveLength(0);
    expect(by("service.delete", admin.email)).not.toHaveLength(0);
    expect(by("budget.save", editor.email)).not.toHaveLength(0);
    expect(by("slo.create", editor.email)).not.toHaveLength(0);
    expect(by("openslo.import", editor.email)).not.toHaveLength(0);
    expect(by("experiment.status", editor.email)).not.toHaveLength(0);
    // CI's upload is the token's, on behalf of its owner.
    expect(
      trail.some(
        (e) =>
          e.action === "experiment.upload" &&
          e.actor.kind === "token" &&
          e.actor.name === `CI uploads (${editor.email})`,
      ),
    ).toBe(true);
    expect(by("alert.receive", "alertmanager")).not.toHaveLength(0);
  });

  test("the admin reads it on the audit page, filtered by service in the URL", async ({ page }) => {
    const [newest] = (await (await page.request.get("/api/audit?limit=1")).json()) as Entry[];
    await page.goto("/admin/audit");
    await expect(page.getByTestId("audit-table")).toBeVisible();
    // The page opens on the newest entries, the one the API names first among them.
    await expect(page.getByTestId("audit-table").getByText(newest!.summary).first()).toBeVisible();
    await page.getByLabel("Service").selectOption("chat-api");
    await expect(page).toHaveURL(/service=chat-api/);
    // The filtered page replaces the unfiltered one once it arrives: poll until it has.
    const serviceCells = page.getByTestId("audit-table").locator("tbody tr td:nth-child(4)");
    await expect.poll(async () => [...new Set(await serviceCells.allTextContents())]).toEqual(["chat-api"]);
  });

  test("an editor is told the audit trail is for admins", async ({ browser }) => {
    const { storageStateOf } = await import("../accounts");
    const editor = await browser.newContext({ storageState: storageStateOf("editor") });
    const page = await editor.newPage();
    await page.goto("/admin/audit");
    await expect(page.getByText("Admins can read the audit trail; you are an editor.")).toBeVisible();
    expect((await page.request.get("/api/audit")).status()).toBe(403);
    await editor.close();
  });
});
