import { expect, test } from "@playwright/test";
import { component, createService, uniqueSlug } from "../builders";

test.describe("budgets: a team lead edits a budget", () => {
  test("creates a service, builds stages including a parallel one, watches the margin, saves", async ({ page }) => {
    const slug = uniqueSlug("lead");
    await page.goto("/");
    await page.getByRole("link", { name: "New service" }).click();
    await page.getByLabel("Name").fill("Checkout assistant");
    await page.getByLabel("Slug").fill(slug);
    await page.getByLabel("Target (ms)").fill("500");
    await page.getByRole("button", { name: "Create service" }).click();

    await expect(page).toHaveURL(new RegExp(`/services/${slug}/budget$`));
    await expect(page.getByText("No stages yet.")).toBeVisible();

    await page.getByRole("button", { name: "+ Add stage" }).click();
    await page.getByLabel("Stage 1 name").fill("Network");
    await page.getByLabel("Stage 1 component 1 name").fill("Network");
    await page.getByLabel("Stage 1 component 1 p95 budget in ms").fill("150");
    await expect(page.getByTestId("stacked-p95")).toHaveText("150 ms");
    await expect(page.getByTestId("margin-p95")).toHaveText("350 ms");

    await page.getByRole("button", { name: "+ Add stage" }).click();
    await page.getByLabel("Stage 2 name").fill("Safety ∥ RAG");
    await page.getByLabel("Stage 2 component 1 name").fill("Safety check");
    await page.getByLabel("Stage 2 component 1 p95 budget in ms").fill("60");
    await page.getByTestId("stage-1").getByRole("button", { name: "+ parallel component" }).click();
    await page.getByLabel("Stage 2 component 2 name").fill("RAG retrieval");
    await page.getByLabel("Stage 2 component 2 p95 budget in ms").fill("120");

    // The parallel stage counts its slowest component: 150 + max(60, 120).
    await expect(page.getByTestId("stage-1-time")).toContainText("120 ms");
    await expect(page.getByTestId("stage-1").getByText("critical path")).toBeVisible();
    await expect(page.getByTestId("stacked-p95")).toHaveText("270 ms");
    await expect(page.getByTestId("margin-p95")).toHaveText("230 ms");

    // Over the target is flagged at once.
    await page.getByLabel("Stage 2 component 2 p95 budget in ms").fill("400");
    await expect(page.getByTestId("margin-p95")).toHaveText("over by 50 ms");
    await expect(page.getByText("The stacked p95 budgets exceed the target by 50 ms.")).toBeVisible();
    await page.getByLabel("Stage 2 component 2 p95 budget in ms").fill("120");

    await page.getByLabel("Change note").fill("First cut");
    await page.getByRole("button", { name: "Save budget" }).click();
    await expect(page.getByText(/Saved version 2/)).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Stage 2 component 2 p95 budget in ms")).toHaveValue("120");
    await expect(page.getByTestId("margin-p95")).toHaveText("230 ms");
  });

  test("shows field errors inline and saves with the keyboard", async ({ page, request }) => {
    const slug = await createService(request, {
      stages: [{ name: "Network", components: [component("Network", 150)] }],
    });
    await page.goto(`/services/${slug}/budget`);
    const p95 = page.getByLabel("Stage 1 component 1 p95 budget in ms");
    await p95.fill("-3");
    await expect(page.getByText("Must be more than 0 ms")).toBeVisible();
    await expect(p95).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Stage 1 component 1 p50 budget in ms").fill("200");
    await p95.fill("180");
    await expect(page.getByText("p95 cannot be below p50")).toBeVisible();
    await p95.fill("250");
    await expect(page.getByText("p95 cannot be below p50")).toBeHidden();

    await page.keyboard.press("Control+s");
    await expect(page.getByText(/Saved version 2/)).toBeVisible();
  });

  test("what is typed while the page's scripts still load is kept, not overwritten by the saved values", async ({
    page,
    request,
  }) => {
    const slug = await createService(request, {
      stages: [{ name: "Network", components: [component("Network", 150)] }],
    });
    // A slow connection: the server's HTML is on screen a while before React takes it over.
    await page.route("**/_next/static/chunks/**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto(`/services/${slug}/budget`, { waitUntil: "domcontentloaded" });
    await page.getByLabel("Target (ms)").fill("650");
    await page.waitForLoadState("load");
    await expect(page.getByTestId("margin-p95")).toHaveText("500 ms");
    await expect(page.getByLabel("Target (ms)")).toHaveValue("650");
  });

  test("reorders and removes stages", async ({ page, request }) => {
    const slug = await createService(request, {
      stages: [
        { name: "A", components: [component("a", 10)] },
        { name: "B", components: [component("b", 20)] },
        { name: "C", components: [component("c", 30)] },
      ],
    });
    await page.goto(`/services/${slug}/budget`);
    await page.getByRole("button", { name: "Move stage 3 up" }).click();
    await expect(page.getByLabel("Stage 2 name")).toHaveValue("C");
    await page.getByRole("button", { name: "Remove stage 1" }).click();
    await expect(page.getByLabel("Stage 1 name")).toHaveValue("C");
    await expect(page.getByTestId("stacked-p95")).toHaveText("50 ms");
    await page.getByRole("button", { name: "Save budget" }).click();
    await expect(page.getByText(/Saved version 2/)).toBeVisible();

    const saved = await (await request.get(`/api/services/${slug}/budget`)).json();
    expect(saved.stages.map((s: { name: string }) => s.name)).toEqual(["C", "B"]);
  });
});

test.describe("budgets: the editor's layout", () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test("row controls and the source editor stay inside the stage card on a 1400 px window", async ({ page }) => {
    await page.goto("/services/chat-api/budget");
    const stage = page.getByTestId("stage-2"); // Session ∥ rate limit: two parallel components
    await stage.getByRole("button", { name: "Source" }).first().click();
    await expect(stage.getByLabel("Unit")).toBeVisible();
    const card = (await stage.boundingBox())!;
    const inside = async (what: string, box: { x: number; width: number } | null) => {
      expect(box, what).not.toBeNull();
      expect(box!.x + box!.width, what).toBeLessThanOrEqual(card.x + card.width + 0.5);
    };
    // Each control, not its cell: a nowrap cell keeps its box while its content spills out of it.
    for (const control of [
      ...(await stage.getByRole("combobox", { name: /^Move component/ }).all()),
      ...(await stage.getByRole("button", { name: /^Remove component/ }).all()),
    ])
      await inside((await control.getAttribute("aria-label")) ?? "control", await control.boundingBox());
    await inside("source editor", await stage.getByLabel("Label value 1").boundingBox());
    // The source editor reads its histogram live.
    await expect(stage.locator("[id$='-preview']")).toContainText(/Live now|No observations|Reading/);
  });
});

test.describe("budgets: restructuring the pipeline", () => {
  test("moves a component into another stage as a parallel one, and out into a stage of its own", async ({
    page,
    request,
  }) => {
    const slug = await createService(request, {
      targetMs: 700,
      stages: [
        { name: "Network", components: [component("Network", 150)] },
        { name: "Safety", components: [component("Safety check", 60)] },
        { name: "RAG", components: [component("RAG retrieval", 120)] },
      ],
    });
    await page.goto(`/services/${slug}/budget`);
    await expect(page.getByTestId("stacked-p95")).toHaveText("330 ms");

    // Safety check now runs beside RAG retrieval: its stage disappears, the total drops by 60 ms.
    await page.getByLabel("Move component 1 of stage 2 to").selectOption({ label: "stage 3: RAG (parallel)" });
    await expect(page.getByTestId("stage-1").getByLabel("Stage 2 name")).toHaveValue("RAG");
    await expect(page.getByLabel("Stage 2 component 2 name")).toHaveValue("Safety check");
    await expect(page.getByTestId("stacked-p95")).toHaveText("270 ms");
    await page.getByRole("button", { name: "Save budget" }).click();
    await expect(page.getByText(/Saved version 2/)).toBeVisible();

    // And back out into a stage of its own, right after.
    await page.getByLabel("Move component 2 of stage 2 to").selectOption({ label: "a stage of its own, next" });
    await expect(page.getByLabel("Stage 3 name")).toHaveValue("Safety check");
    await expect(page.getByTestId("stacked-p95")).toHaveText("330 ms");
    await page.getByRole("button", { name: "Save budget" }).click();
    await expect(page.getByText(/Saved version 3/)).toBeVisible();

    await page.getByRole("link", { name: "History" }).click();
    await expect(page.getByRole("list", { name: "Changes in version 2" })).toContainText(
      "Moved “Safety check” from “Safety” to “RAG”",
    );
  });
});
