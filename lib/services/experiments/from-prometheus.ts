import "server-only";
import type { MetricSource } from "@/lib/domain/budget";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { mergeVariantData } from "@/lib/db/experiments";
import { newAccumulator, type VariantAccumulator } from "@/lib/domain/experiments";
import { addBucketsAsSamples } from "@/lib/domain/histogram-samples";
import { addToRatio } from "@/lib/domain/stats/ratio";
import { AppError } from "@/lib/errors";
import type { PrometheusClient } from "@/lib/prometheus/client";
import { assertLabelName, selector } from "@/lib/prometheus/promql";
import { fetchBucketIncreases } from "@/lib/prometheus/buckets";
import { metricNameSchema, labelNameSchema } from "@/lib/schemas/budget";
import { parseInput } from "@/lib/schemas/parse";
import { authorOf, type Actor } from "../actor";
import { recordAudit } from "../audit";
import { mutation } from "../mutation";
import { getBudget } from "../budgets";
import { getExperimentOrThrow } from "./experiments";

// Results from Prometheus instead of raw samples: each variant's TTFT histogram (selected by a
// variant label) over the experiment's time range, and its cost and token counters. A histogram
// only knows bucket counts, so each bucket's requests are spread evenly inside it, the same
// linear interpolation histogram_quantile uses (lib/domain/histogram-samples.ts); percentiles are
// estimates within a bucket's width.

const importSchema = z.object({
  metric: metricNameSchema.optional(),
  variantLabel: labelNameSchema.default("variant"),
  costMetric: metricNameSchema.default("llm_cost_dollars_total"),
  tokensMetric: metricNameSchema.default("llm_tokens_total"),
});

export const importFromPrometheus = mutation(
  "experiment.import",
  async ({
    db,
    actor,
    prom,
    id,
    input,
    now = Date.now() / 1000,
  }: {
    db: Db;
    actor: Actor;
    prom: PrometheusClient | null;
    id: string;
    input: unknown;
    now?: number;
  }): Promise<{ imported: Record<string, number>; range: { start: string; end: string } }> => {
    const options = parseInput(importSchema, input, "The import");
    if (!prom) throw new AppError("UNAVAILABLE", "Prometheus is not configured: set PROMETHEUS_URL.");
    const experiment = await getExperimentOrThrow({ db, id });
    const budget = await getBudget({ db, slug: experiment.serviceSlug });
    const source: Pick<MetricSource, "metric" | "matchers" | "unit" | "kind"> | null | undefined = options.metric
      ? { metric: options.metric, matchers: {} }
      : budget.endToEndSource;
    if (!source)
      throw new AppError(
        "VALIDATION_FAILED",
        "Name the TTFT histogram to import: the service has no end-to-end source.",
        { metric: "Required" },
      );
    const end = Math.floor(experiment.endsAt ? Date.parse(experiment.endsAt) / 1000 : now);
    const start = Math.floor(experiment.startsAt ? Date.parse(experiment.startsAt) / 1000 : end - 3600);
    const rangeSeconds = end - start;
    if (rangeSeconds < 60)
      throw new AppError("VALIDATION_FAILED", "The experiment's time range is shorter than a minute.", {
        endsAt: "Too close to the start",
      });
    const window = `${Math.ceil(rangeSeconds / 60)}m`;
    const label = assertLabelName(options.variantLabel);

    const upload = new Map<string, VariantAccumulator>();
    const imported: Record<string, number> = {};
    for (const { name } of experiment.variants) {
      const matchers = { ...source.matchers, [label]: name };
      const buckets = await fetchBucketIncreases(
        prom,
        { metric: source.metric, matchers, unit: source.unit, kind: source.kind },
        { windows: [window], time: end },
      );
      if (buckets.status === "error") throw new AppError("UNAVAILABLE", `Prometheus query failed: ${buckets.error}`);
      const acc = newAccumulator();
      try {
        imported[name] = addBucketsAsSamples(acc, buckets.groups.get(window) ?? []);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        throw new AppError("VALIDATION_FAILED", `Variant ${JSON.stringify(name)}: ${error.message}`);
      }
      const counters = { ...(source.matchers.service ? { service: source.matchers.service } : {}), [label]: name };
      const [cost, tokens] = await Promise.all(
        [options.costMetric, options.tokensMetric].map((metric) =>
          prom.query(`sum(increase(${selector(metric, counters)}[${window}]))`, end),
        ),
      );
      const costUsd = cost?.status === "success" ? cost.samples[0]?.value : undefined;
      const tokenCount = tokens?.status === "success" ? tokens.samples[0]?.value : undefined;
      if (costUsd !== undefined && tokenCount !== undefined && tokenCount > 0)
        addToRatio(acc.cost, costUsd, tokenCount);
      upload.set(name, acc);
    }
    const accepted = Object.values(imported).reduce((a, b) => a + b, 0);
    await mergeVariantData(
      db,
      experiment.id,
      upload,
      { source: "prometheus", accepted, rejected: 0, createdBy: authorOf(actor) },
      (tx) =>
        recordAudit(tx, actor, {
          action: "experiment.import",
          service: experiment.serviceSlug,
          target: experiment.name,
          summary: `Imported ${accepted} requests from Prometheus into experiment “${experiment.name}”`,
        }),
    );
    return {
      imported,
      range: { start: new Date(start * 1000).toISOString(), end: new Date(end * 1000).toISOString() },
    };
  },
);
