import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

// A PM creates an experiment, uploads its samples, reads the verdict and the charts, and finds
// the option on the cost-versus-latency view.

/** The seed example: control TTFT p95 660 ms at $0.030 / 1k tokens, treatment 580 ms at $0.025. */
function seedExampleCsv(): string {
  const lines = ["variant,ttft_ms,tokens,cost_usd,quality"];
  for (const [variant, p95, dollarsPer1k] of [
    ["control", 660, 0.03],
    ["treatment", 580, 0.025],
  ] as const) {
    for (let i = 1; i <= 1000; i++)
      lines.push(`${variant},${i <= 950 ? (p95 * i) / 950 : p95 + (i - 950) * 2},1000,${dollarsPer1k},0.9`);
  }
  return lines.join("\n");
}

test.describe("experiments: a PM reviews an A/B test", () => {
  test("creates an experiment, uploads a CSV, reads the verdict, and adds the result to the trade-offs", async ({
    page,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), "lb-upload-"));
    const good = join(dir, "results.csv");
    const bad = join(dir, "bad.csv");
    writeFileSync(good, seedExampleCsv());
    writeFileSync(bad, "variant,ttft_ms\ncontrol,100\nblue,90\n");
    const name = `prefix-caching-${Date.now()}`;

    await page.goto("/experiments");
    await page.getByRole("link", { name: "New experiment" }).click();
    await page.getByLabel("Experiment name").fill(name);
    await page.getByLabel("Hypothesis").fill("Prefix caching cuts TTFT and cost");
    await page.getByRole("button", { name: "Create experiment" }).click();
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expect(page.getByText("No results yet")).toBeVisible();

    await page.getByLabel("Samples file").setInputFiles(bad);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByTestId("upload-outcome")).toContainText("1 of 2 rows are invalid, so nothing was stored");
    await expect(page.getByRole("list", { name: "Bad rows" })).toContainText(
      "line 3: variant “blue” is not one of control, treatment",
    );

    await page.getByLabel("Samples file").setInputFiles(good);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByTestId("upload-outcome")).toContainText("Stored 2,000 rows");
    await expect(page.getByTestId("verdict")).toHaveText(
      "Treatment is 12 % faster at TTFT p95 and 17 % cheaper — ship.",
    );
    await expect(page.getByTestId("srm")).toContainText("No mismatch");
    await expect(page.getByTestId("variant-control")).toContainText("660.0 ms");
    await expect(page.getByTestId("variant-treatment")).toContainText("580.0 ms");
    await expect(page.getByTestId("variant-treatment")).toContainText("$0.0250");
    await expect(page.getByRole("img", { name: "Latency distribution per variant (cumulative)" })).toBeVisible();
    await expect(page.getByRole("img", { name: "95 % confidence intervals of the percentiles" })).toBeVisible();

    await page.getByRole("button", { name: "Add to the trade-offs catalog" }).click();
    await expect(page.getByText("Added to the trade-offs catalog.")).toBeVisible();

    await page.getByRole("link", { name: "Trade-offs" }).click();
    const option = page.getByTestId(`option-${name}`);
    await expect(option).toContainText("−80 ms");
    await expect(option).toContainText("−16.7 %");
    await expect(page.getByTestId("option-Smaller models for simple queries")).toContainText("on the frontier");
    await page.getByLabel("Cost cap (%)").fill("-90");
    await expect(page.getByTestId("plan")).toContainText("Smaller models for simple queries");
  });
});
