import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { openSloDocument } from "../../test/openslo-documents";
import { createService, uniqueSlug } from "../builders";

// A team brings its SLOs as OpenSLO files: refused clearly when they cannot map onto a histogram,
// imported (timeslices, calendar month) when they can, and exported back.

const timeslicesSlo = (service: string) =>
  openSloDocument({
    service,
    name: "ttft-slices",
    displayName: "TTFT slices",
    good: 'llm_request_ttft_seconds_bucket{service="chat-api",le="0.5"}',
    total: 'llm_request_ttft_seconds_count{service="chat-api"}',
    timeWindow:
      '{ duration: 1M, isRolling: false, calendar: { startTime: "2026-01-01 00:00:00", timeZone: Europe/Berlin } }',
    budgetingMethod: "Timeslices",
    objectives: "{ target: 0.99, timeSliceTarget: 0.95, timeSliceWindow: 5m }",
  });

test("OpenSLO: the project's own example is refused with its path; a Prometheus SLO imports and exports", async ({
  page,
  request,
}) => {
  const slug = uniqueSlug("openslo");
  await createService(request, { slug });
  await page.goto(`/services/${slug}/slos`);
  await expect(page.getByText("No SLOs yet")).toBeVisible();

  const file = page.getByLabel("OpenSLO file");
  await file.setInputFiles({
    name: "occurences-slo.yaml",
    mimeType: "application/yaml",
    buffer: readFileSync("test/fixtures/openslo/occurences-slo.yaml"),
  });
  const error = page.getByTestId("openslo-error");
  await expect(error).toContainText("Nothing was imported");
  await expect(error).toContainText(
    'docs[0].spec.indicator.spec.thresholdMetric.metricSource.type: "Any" is not a Prometheus source',
  );

  await file.setInputFiles({
    name: "slices.yaml",
    mimeType: "application/yaml",
    buffer: Buffer.from(timeslicesSlo(slug)),
  });
  await expect(page.getByTestId("openslo-result")).toContainText("SLO “TTFT slices”");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "TTFT slices" }) });
  await expect(card).toContainText(
    "99.00 % of 5-minute slices whose p95 ≤ 500 ms over this calendar month (Europe/Berlin",
  );

  const exported = await request.get(`/api/services/${slug}/openslo.yaml`);
  const text = await exported.text();
  expect(text).toContain("budgetingMethod: Timeslices");
  expect(text).toContain("timeZone: Europe/Berlin");
  expect(text).toContain('query: llm_request_ttft_seconds_bucket{le="0.5",service="chat-api"}');
});
