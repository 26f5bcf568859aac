import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { PROMETHEUS_PORT } from "../../playwright.config";

// A team lead builds a service from spanmetrics-shaped telemetry (milliseconds, one series per
// span name), as the OTel Collector exports it: the wizard discovers the histogram, the spans
// become stages, the proposed budgets become the first revision, and the new service's waterfall
// shows Prometheus's own percentiles.

const SPANS = "traces_span_metrics_duration_milliseconds";

async function prometheusQuantile(q: number, spanName: string, window: string, at: number): Promise<number> {
  const query = `histogram_quantile(${q}, sum by (le) (rate(${SPANS}_bucket{service_name="chat-api",span_name="${spanName}"}[${window}])))`;
  const response = await fetch(
    `http://127.0.0.1:${PROMETHEUS_PORT}/api/v1/query?${new URLSearchParams({ query, time: String(at) })}`,
  );
  const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
  return Number(body.data.result[0]!.value[1]);
}

test.describe("services: a new service from telemetry", () => {
  test.describe.configure({ timeout: 120_000 });

  test("picks five spans, runs two in parallel, accepts the proposed budgets; the waterfall reads Prometheus's percentiles", async ({
    page,
    request,
  }) => {
    const name = `RAG spans ${randomUUID().slice(0, 6)}`;
    await page.goto("/services/new");
    await page.getByRole("link", { name: "build it from your telemetry" }).click();
    await expect(page).toHaveURL(/\/services\/new\/telemetry$/);

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Target (ms)").fill("700");
    await page.getByLabel("Search histograms").fill("span_metrics");
    const list = page.getByRole("list", { name: "Discovered histograms" });
    await expect(list.getByText(SPANS, { exact: true })).toBeVisible();

    await page.getByRole("button", { name: `Use ${SPANS} as end to end` }).click();
    await page.getByLabel("Only span_name").selectOption("POST /chat");
    // Other demo services export spans too: read chat-api's.
    const services = page.getByLabel("Only service_name");
    if (await services.count()) await services.selectOption("chat-api");

    await page.getByRole("button", { name: `Stages by span_name of ${SPANS}` }).click();
    for (const span of ["gateway", "orchestrator", "safety", "rag", "llm_first_token"])
      await page.getByLabel(span, { exact: true }).check();
    await page.getByRole("button", { name: "Add 5 as stages" }).click();

    const stages = page.getByRole("list", { name: "Stages" });
    await expect(stages.getByRole("listitem")).toHaveCount(5);
    // Keyboard order: RAG before safety, then safety in parallel with it.
    await page.getByRole("button", { name: "Move rag up" }).click();
    await stages.getByRole("listitem").nth(3).getByLabel("parallel with the one above").check();

    await page.getByRole("button", { name: "Measure and propose budgets" }).click();
    await expect(page.getByTestId("proposal-note")).toContainText("The measured p95s stack to");
    await expect(page.getByTestId("budget-rag")).not.toHaveText("— · — · —");

    await page.getByRole("button", { name: "Create the service with these budgets" }).click();
    await expect(page).toHaveURL(/\/services\/rag-spans-[a-z0-9]+\/waterfall/);
    const slug = page.url().split("/services/")[1]!.split("/")[0]!;

    // The first revision holds the proposal: budgets on every component, the spans as sources.
    const budget = await (await request.get(`/api/services/${slug}/budget`)).json();
    expect(budget.stages.map((s: { name: string }) => s.name)).toEqual([
      "gateway",
      "orchestrator",
      "rag ∥ safety",
      "llm_first_token",
    ]);
    expect(budget.endToEndSource.matchers).toMatchObject({ span_name: "POST /chat" });
    const rag = budget.stages[2].components[0];
    expect(rag.source).toMatchObject({ metric: SPANS, matchers: { span_name: "rag" } });
    expect(rag.budgetMs.p95).toBeGreaterThan(0);

    // The waterfall's figures are Prometheus's own histogram_quantile on the ms histogram.
    const view = await (await request.get(`/api/services/${slug}/waterfall?quantile=0.95&window=5m`)).json();
    for (const [stage, component, span] of [
      [0, 0, "gateway"],
      [2, 0, "rag"],
      [3, 0, "llm_first_token"],
    ] as const) {
      const ours = view.stages[stage].components[component].actualMs as number;
      expect(ours, span).toBeCloseTo(await prometheusQuantile(0.95, span, "5m", view.at), 6);
    }
    await expect(page.getByRole("table", { name: "Components" }).getByRole("row")).toHaveCount(6);
  });
});
