import { expect, test } from "@playwright/test";
import { TRAFFIC_PORT } from "../../playwright.config";

// On-call in time, against live demo traffic: since when RAG retrieval is over budget, what
// changed just before (a deploy posted by CI with a token), and which requests were slow.

async function setIncident(mode: "none" | "rag") {
  const response = await fetch(`http://127.0.0.1:${TRAFFIC_PORT}/incident?mode=${mode}`, { method: "POST" });
  expect(response.ok).toBe(true);
}

test.describe("on-call in time", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  test.afterAll(async () => setIncident("none"));

  test("the timeline shows RAG retrieval over budget since the incident began, the deploy posted then, and slow requests' traces", async ({
    page,
    request,
    baseURL,
  }) => {
    // A deploy step's token: only write:annotations.
    const created = await request.post("/api/tokens", {
      data: { name: "deploy step", scopes: ["write:annotations"] },
      headers: { origin: baseURL! },
    });
    expect(created.status()).toBe(201);
    const { token } = (await created.json()) as { token: string };

    // A calm start: an earlier incident must have left the 1-minute window first.
    const ragSince = async () => {
      const timeline = await (await request.get("/api/services/chat-api/timeline?range=15m&window=1m")).json();
      return timeline.series.find((s: { component: string }) => s.component === "RAG retrieval").overBudgetSince;
    };
    await setIncident("none");
    await expect.poll(ragSince, { timeout: 120_000, intervals: [3000] }).toBeNull();
    await setIncident("rag");
    const began = Math.floor(Date.now() / 1000);
    const posted = await fetch(`${baseURL}/api/annotations`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ service: "chat-api", at: began, text: "Deployed rag-v2 <reranker on>", tags: ["deploy"] }),
    });
    expect(posted.status).toBe(201);
    // The same token may not change a budget.
    const refused = await fetch(`${baseURL}/api/services/chat-api/budget`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(refused.status).toBe(403);

    // "Over budget since" within a step of the switch (1-minute rate window, 15 s steps).
    await expect.poll(ragSince, { timeout: 120_000, intervals: [3000] }).not.toBeNull();
    const since = (await ragSince()) as number;
    expect(since - began).toBeGreaterThanOrEqual(-15);
    expect(since - began).toBeLessThanOrEqual(60);

    await page.goto("/services/chat-api/waterfall?range=15m&window=1m");
    const summary = page.getByTestId("over-summary");
    await expect(summary).toContainText(/RAG retrieval over budget since \d\d:\d\d/);
    const annotations = page.getByRole("list", { name: "Annotations" });
    // Plain text, as typed: never HTML.
    await expect(annotations).toContainText("Deployed rag-v2 <reranker on>");
    // The timeline's answer is shared by every viewer: its authors by name, a token as an API token.
    await expect(annotations).toContainText("by E2E lead (API token)");
    await expect(annotations).not.toContainText("lead@e2e.example");

    const slow = page.getByRole("table", { name: "Slowest requests of RAG retrieval" });
    await expect(slow.getByRole("link").first()).toHaveAttribute(
      "href",
      /^http:\/\/jaeger\.e2e:16686\/trace\/[0-9a-f]{32}$/,
    );
    await expect(page.getByRole("img", { name: /^RAG retrieval: p95 over the last 15m/ })).toBeVisible();

    // What changed just before: the waterfall compares with the moment before the deploy.
    await annotations
      .getByRole("listitem")
      .filter({ hasText: "Deployed rag-v2" })
      .getByRole("button", { name: "Compare with just before" })
      .click();
    await expect(page).toHaveURL(/compare=\d+/);
    await expect(page.getByRole("columnheader", { name: /^Δ vs / })).toBeVisible();

    // Clicking a chart pins the page to that moment: an incident link.
    await page
      .getByRole("img", { name: /^RAG retrieval: p95 over the last 15m/ })
      .click({ position: { x: 200, y: 50 } });
    await expect(page).toHaveURL(/[?&]at=\d+/);
    await expect(page.getByRole("button", { name: "Back to live" })).toBeVisible();
  });

  test("the SLO page shows the error budget burning, with the alert thresholds", async ({ page }) => {
    await page.goto("/services/chat-api/slos?history=1h");
    const rag = page.getByRole("region", { name: "History of RAG retrieval under 150 ms" });
    await expect(rag.getByTestId("burn-down")).toBeVisible();
    await expect(rag.getByRole("img", { name: /Burn rate \(× budget\) of RAG retrieval under 150 ms/ })).toBeVisible();
    await expect(rag.getByText(/page 1h 13\.44×/)).toBeVisible();
    // The last point is the status above it: less than all of the budget left.
    const left = await rag.getByTestId("burn-down").locator("p span").nth(1).textContent();
    expect(Number(left!.replace(/[^0-9.−-]/g, "").replace("−", "-"))).toBeLessThan(100);
  });

  test("the home page puts chat-api first among the services, with RAG retrieval over budget", async ({
    page,
    request,
  }) => {
    // Other journeys leave services of their own (one built from the same spans, over its target
    // during the incident): every service above chat-api must be in trouble too, worst first.
    const board = (await (await request.get("/api/status")).json()) as {
      services: {
        slug: string;
        firingAlerts: number;
        overBudget: { component: string }[];
        measuredMs: number | null;
        targetMs: number;
      }[];
    };
    const index = board.services.findIndex((s) => s.slug === "chat-api");
    expect(board.services[index]!.overBudget.map((c) => c.component)).toContain("RAG retrieval");
    for (const above of board.services.slice(0, index))
      expect(
        above.firingAlerts > 0 || above.overBudget.length > 0 || (above.measuredMs ?? 0) > above.targetMs,
        `${above.slug} is above chat-api`,
      ).toBe(true);
    await page.goto("/");
    const card = page.getByRole("list", { name: "Services" }).getByRole("listitem").filter({ hasText: "chat-api" });
    await expect(card.getByRole("list", { name: "Over budget in Chat API" })).toContainText("RAG retrieval");
  });
});
