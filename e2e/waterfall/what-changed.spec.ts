import { expect, test } from "@playwright/test";

// A busy hour on the waterfall's timeline: sixty deploys and notes. "What changed" groups them
// by kind and 10-minute slice, newest first, ten groups at a time, filtered by kind from the URL,
// and stays short enough that the slowest requests are still on the second screen at most.

test("sixty deploys and notes in an hour read as a page of groups, newest first, filtered by kind", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // An hour that ended two hours ago, so no other spec's annotations fall in it: a deploy at every
  // even minute's half (hh:00:30, hh:02:30…) and a note at every odd one.
  const start = Math.floor((Date.now() / 1000 - 3 * 3600) / 3600) * 3600;
  for (let i = 0; i < 60; i++) {
    const deploy = i % 2 === 0;
    const posted = await request.post("/api/annotations", {
      headers: { origin: baseURL! },
      data: {
        service: "chat-api",
        at: start + i * 60 + 30,
        kind: deploy ? "deploy" : "note",
        text: `${deploy ? "Deploy" : "Note"} #${i} <b>plain</b>`,
      },
    });
    expect(posted.status()).toBe(201);
  }

  // Pinned 45 minutes in, a 1-hour range ends a quarter after: exactly that hour.
  await page.goto(`/services/chat-api/waterfall?range=1h&window=1m&at=${start + 2700}`);
  const list = page.getByRole("list", { name: "Annotations" });
  const groups = list.getByTestId("annotation-group");
  // By hand: six slices × (5 deploys + 5 notes) = 12 groups; the newest is the notes of the last
  // slice (#51…#59), then its deploys (#50…#58); ten shown, two left.
  await expect(groups).toHaveCount(10);
  await expect(groups.nth(0)).toContainText("5 notes");
  await expect(groups.nth(0)).toContainText("latest: Note #59 <b>plain</b>");
  await expect(groups.nth(1)).toContainText("5 deploys");
  await expect(groups.nth(1)).toContainText("latest: Deploy #58");
  await expect(groups.nth(9)).toContainText("latest: Deploy #18");
  await expect(list.getByText("Deploy #0 ", { exact: false })).toHaveCount(0);

  // The slowest requests are no longer pushed screens down by the list: from "What changed" to
  // them is less than a screen (sixty lines of about 30 px were more than two and a half).
  const viewport = page.viewportSize()!;
  const changed = await page.getByRole("heading", { name: "What changed" }).boundingBox();
  const slow = await page.getByRole("heading", { name: "Slowest requests" }).boundingBox();
  expect(slow!.y - changed!.y).toBeLessThan(viewport.height);

  // Opening a group lists its annotations newest first, as typed (never HTML).
  const notes = groups.nth(0).getByRole("button", { name: /5 notes/ });
  await expect(notes).toHaveAttribute("aria-expanded", "false");
  await notes.click();
  await expect(notes).toHaveAttribute("aria-expanded", "true");
  const items = list.getByRole("listitem").filter({ hasText: /^.*Note #5\d/ });
  await expect(items).toHaveCount(5);
  await expect(items.nth(0)).toContainText("Note #59 <b>plain</b>");
  await expect(items.nth(4)).toContainText("Note #51");

  // The rest of the hour, on asking.
  await page.getByRole("button", { name: "Show 2 more (2 groups left)" }).click();
  await expect(groups).toHaveCount(12);
  await expect(groups.nth(11)).toContainText("latest: Deploy #8");

  // The filter by kind, by keyboard, kept in the URL: only the deploys, six groups of five.
  const filter = page.getByRole("group", { name: "Filter by kind" });
  await expect(filter.getByRole("button", { name: "all 60" })).toHaveAttribute("aria-pressed", "true");
  await filter.getByRole("button", { name: "deploys 30" }).focus();
  await page.keyboard.press("Enter");
  await expect(filter.getByRole("button", { name: "deploys 30" })).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/[?&]changes=deploy(&|$)/);
  await expect(groups).toHaveCount(6);
  for (let i = 0; i < 6; i++) await expect(groups.nth(i)).toContainText("5 deploys");
  await expect(list).not.toContainText("Note #");

  // An incident link keeps it.
  await page.reload();
  await expect(
    page.getByRole("group", { name: "Filter by kind" }).getByRole("button", { name: "deploys 30" }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(groups).toHaveCount(6);

  // A kind with nothing in the range says so and offers every kind back.
  await page.goto(`/services/chat-api/waterfall?range=1h&window=1m&at=${start + 2700}&changes=alert`);
  await expect(page.getByText("No alerts in the last 1h.")).toBeVisible();
  await page.getByRole("button", { name: "Show every kind" }).click();
  await expect(page).not.toHaveURL(/changes=/);
  await expect(groups).toHaveCount(10);
});
