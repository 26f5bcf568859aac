import "server-only";
import { LRUCache } from "lru-cache";
import type { MetricSource } from "@/lib/domain/budget";
import { unitFromMetadata, unitFromName, type HistogramKind, type HistogramUnit } from "@/lib/domain/units";
import type { PrometheusClient } from "./client";
import { bucketSelector, nativeSelector } from "./promql";

// A source may leave its kind out (scripts, OpenSLO imports, documents older than kinds): the
// histogram is classic when Prometheus has `_bucket` series under its name and the source's
// matchers, native when it has histogram samples under the name itself and those matchers (while
// a team moves to native histograms, one name is classic on some targets and native on others, so
// the metric alone cannot tell). Asked once per metric, matchers and Prometheus, then kept: ten
// minutes for an answer, thirty seconds for "cannot tell" (no series yet, or Prometheus down), so
// a source saved before its histogram exists, or while Prometheus is down, is read right soon after.

type Learned = { kind: HistogramKind | null; unit: HistogramUnit | null };
type Matchers = Record<string, string>;

const KNOWN_TTL_MS = 10 * 60_000;
const UNKNOWN_TTL_MS = 30_000;

const globalForKinds = globalThis as unknown as { latencyBudgetsHistogramKinds?: LRUCache<string, Learned> };
const learned = (globalForKinds.latencyBudgetsHistogramKinds ??= new LRUCache<string, Learned>({
  max: 5000,
  maxSize: 4 << 20,
  sizeCalculation: (_value, key) => 2 * key.length + 64,
  ttl: KNOWN_TTL_MS,
  updateAgeOnGet: false,
}));
const asking = new Map<string, Promise<Learned>>();

/** Forgets what was learned (tests). */
export function forgetHistogramKinds(): void {
  learned.clear();
}

/** Prometheus, metric and matchers (sorted, so `{a,b}` and `{b,a}` are one entry). */
function keyOf(client: PrometheusClient, metric: string, matchers: Matchers): string {
  const sorted = Object.entries(matchers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${client.baseUrl}\u0000${metric}\u0000${JSON.stringify(sorted)}`;
}

async function ask(client: PrometheusClient, metric: string, matchers: Matchers): Promise<Learned> {
  const time = Math.floor(Date.now() / 1000);
  const source = { metric, matchers };
  const [classic, native, metadata] = await Promise.all([
    client.query(`count(${bucketSelector(source)})`, time),
    client.query(`count(histogram_count(${nativeSelector(source)}))`, time),
    unitFromName(metric)
      ? null
      : client.get<Record<string, { type: string; help: string; unit: string }[]>>(
          `/api/v1/metadata?metric=${encodeURIComponent(metric)}`,
        ),
  ]);
  const has = (result: typeof classic) => result.status === "success" && (result.samples[0]?.value ?? 0) > 0;
  const kind: HistogramKind | null = has(classic) ? "classic" : has(native) ? "native" : null;
  const entries = metadata?.status === "success" ? (metadata.data[metric] ?? []) : [];
  const entry = entries.find((e) => e.type === "histogram") ?? entries[0] ?? null;
  return { kind, unit: unitFromMetadata(entry) };
}

/**
 * The kind Prometheus has for `metric` under `matchers` (null when it cannot tell now), and the
 * unit the metric's metadata states.
 */
export async function learnHistogram(
  client: PrometheusClient,
  metric: string,
  matchers: Matchers = {},
): Promise<Learned> {
  const key = keyOf(client, metric, matchers);
  const hit = learned.get(key);
  if (hit) return hit;
  const running = asking.get(key);
  if (running) return running;
  const promise = ask(client, metric, matchers)
    .catch((): Learned => ({ kind: null, unit: null }))
    .then((answer) => {
      learned.set(key, answer, { ttl: answer.kind ? KNOWN_TTL_MS : UNKNOWN_TTL_MS });
      return answer;
    })
    .finally(() => asking.delete(key));
  asking.set(key, promise);
  return promise;
}

type KindSource = Pick<MetricSource, "metric" | "matchers" | "kind" | "unit">;

/**
 * The source with its kind filled in from Prometheus when it has none (unchanged when it has one,
 * or when Prometheus cannot tell). With `unit`, a unit the name does not state is filled in from
 * the metadata too: that is for saving, where it is stored; reading leaves the unit as stored.
 */
export async function withKind<S extends KindSource>(
  client: PrometheusClient | null,
  source: S,
  options: { unit?: boolean } = {},
): Promise<S> {
  if (!client || (source.kind && (!options.unit || source.unit))) return source;
  const answer = await learnHistogram(client, source.metric, source.matchers);
  const unit = options.unit && !source.unit && !unitFromName(source.metric) ? answer.unit : null;
  return {
    ...source,
    ...(!source.kind && answer.kind && { kind: answer.kind }),
    ...(unit && { unit }),
  };
}

/** Every source of a list with its kind filled in, asking once per metric and matchers. */
export function withKinds<S extends KindSource>(
  client: PrometheusClient | null,
  sources: readonly S[],
  options: { unit?: boolean } = {},
): Promise<S[]> {
  return Promise.all(sources.map((source) => withKind(client, source, options)));
}

type DocumentWithSources<S> = {
  stages: { components: { source: S | null }[] }[];
  endToEndSource?: S | null;
};

/** A budget document with every source's kind filled in (withKind), the rest unchanged. */
export async function withDocumentKinds<S extends KindSource, D extends DocumentWithSources<S>>(
  client: PrometheusClient | null,
  document: D,
  options: { unit?: boolean } = {},
): Promise<D> {
  if (!client) return document;
  const fill = (source: S | null | undefined) =>
    source ? withKind(client, source, options) : Promise.resolve(source ?? null);
  const stages = await Promise.all(
    document.stages.map(async (stage) => ({
      ...stage,
      components: await Promise.all(
        stage.components.map(async (component) => ({ ...component, source: await fill(component.source) })),
      ),
    })),
  );
  return {
    ...document,
    stages,
    ...(document.endToEndSource !== undefined && { endToEndSource: await fill(document.endToEndSource) }),
  };
}

/** The kind learned for `metric` and `matchers` from this Prometheus before, without asking (null when not known). */
export function knownKind(client: PrometheusClient, metric: string, matchers: Matchers = {}): HistogramKind | null {
  return learned.get(keyOf(client, metric, matchers))?.kind ?? null;
}

/**
 * A source as far as its kind is known without asking Prometheus: as stored, else as learned
 * before, else classic. `settled` is false for the last: an empty answer then means "ask".
 */
export function assumedKind<S extends KindSource>(
  client: PrometheusClient,
  source: S,
): { source: S; settled: boolean } {
  if (source.kind) return { source, settled: true };
  const kind = knownKind(client, source.metric, source.matchers);
  return { source: { ...source, kind: kind ?? "classic" }, settled: kind !== null };
}
