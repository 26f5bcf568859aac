import "server-only";
import type { z } from "zod";
import { stringifyYaml } from "@/lib/domain/yaml-text";
import type { MetricSource } from "@/lib/domain/budget";
import { HISTOGRAM_UNITS, kindOf, msToUnit, unitOf, unitToMs, type HistogramUnit } from "@/lib/domain/units";
import { plural } from "@/lib/domain/format";
import { parseLe } from "@/lib/domain/histogram";
import { PRESET_IDS } from "@/lib/domain/presets";
import type { Db } from "@/lib/db/client";
import { insertServiceWithBudget } from "@/lib/db/budgets";
import { findServiceRow } from "@/lib/db/services";
import { insertSlo, listSloRows, updateSloIfVersion, type SloRow } from "@/lib/db/slos";
import { AppError } from "@/lib/errors";
import type { CoalescingClient } from "@/lib/prometheus/coalesce";
import { withKind } from "@/lib/prometheus/kinds";
import { parseSelector } from "@/lib/prometheus/parse-selector";
import { selector } from "@/lib/prometheus/promql";
import { promNumber } from "@/lib/prometheus/sli";
import { fieldErrors } from "@/lib/schemas/parse";
import { sloInputSchema, type SloInput } from "@/lib/schemas/live";
import { slugSchema } from "@/lib/schemas/service";
import { nameSchema, textSchema } from "@/lib/schemas/text";
import { authorOf, authorize, type Actor } from "./actor";
import { recordAudit } from "./audit";
import { mutation } from "./mutation";
import { rulesChanged } from "./rules";
import { getServiceOrThrow } from "./services";
import { forgetCachedSlos } from "./slo-definitions";
import { parseYamlDocuments } from "./yaml/parse";

// OpenSLO v1 (https://github.com/OpenSLO/OpenSLO) in and out. What maps onto a Prometheus
// histogram is imported: a ratioMetric whose good query selects one `_bucket{le=…}` series and
// whose total selects `_count` (or the +Inf bucket) of the same histogram with the same matchers.
// Everything else is refused with the document and the path it is about. An import is all or
// nothing, and importing the same file again updates the SLOs it created ("apply").

export const OPENSLO_LIMITS = { documents: 100, aliases: 50 } as const;
const ANNOTATION = {
  preset: "latency-budgets.dev/preset",
  thresholdMode: "latency-budgets.dev/threshold-mode",
  unit: "latency-budgets.dev/unit",
} as const;

type Json = unknown;
type Problems = Record<string, string>;

export type Imported = {
  kind: "Service" | "SLO";
  name: string;
  service: string;
  action: "created" | "updated" | "unchanged";
};

/** A small typed walk over an untyped document that records what is wrong and where. */
class Reader {
  constructor(
    readonly problems: Problems,
    readonly path: string,
    readonly value: Json,
  ) {}

  at(key: string | number): Reader {
    const next = typeof key === "number" ? `${this.path}[${key}]` : `${this.path}.${key}`;
    const own =
      this.value !== null && typeof this.value === "object" && Object.prototype.hasOwnProperty.call(this.value, key)
        ? (this.value as Record<string | number, Json>)[key]
        : undefined;
    return new Reader(this.problems, next, own);
  }

  fail(message: string): null {
    this.problems[this.path] ??= message;
    return null;
  }

  string({ optional = false, max = 2000 } = {}): string | null {
    if (this.value === undefined || this.value === null) return optional ? null : this.fail("is required");
    if (typeof this.value !== "string") return this.fail("must be text");
    if (this.value.length > max) return this.fail(`must be at most ${max} characters`);
    return this.value;
  }

  number(): number | null {
    if (typeof this.value !== "number" || !Number.isFinite(this.value)) return this.fail("must be a number");
    return this.value;
  }

  /** The value checked by one of the app's own schemas (the same name and text rules as its forms). */
  checked<T>(schema: z.ZodType<T>): T | null {
    const result = schema.safeParse(this.value);
    return result.success ? result.data : this.fail(result.error.issues[0]?.message ?? "is not valid");
  }

  list(): Reader[] | null {
    if (!Array.isArray(this.value)) return this.fail("must be a list");
    return this.value.map((_, i) => this.at(i));
  }

  has(): boolean {
    return this.value !== undefined && this.value !== null;
  }
}

type Candidate =
  | { kind: "Service"; path: string; slug: string; name: string; description: string }
  | { kind: "SLO"; path: string; service: string; slo: SloInput };

/**
 * `x_bucket{…,le="0.5"}` → the histogram, its matchers and the threshold in ms. The bound is in
 * the histogram's unit: the document's unit annotation, else the one the name states, else seconds.
 */
function readGood(
  reader: Reader,
  statedUnit: HistogramUnit | undefined,
): { source: Omit<MetricSource, "preset">; thresholdMs: number } | null {
  const query = prometheusQuery(reader);
  if (query === null) return null;
  const parsed = parseSelector(query);
  const q = reader.at("metricSource").at("spec").at("query");
  if (!parsed.ok) return q.fail(`cannot be imported: ${parsed.reason}`);
  const { metric, matchers } = parsed.selector;
  if (!metric.endsWith("_bucket"))
    return q.fail(`selects ${metric}; the good query must select a histogram's _bucket series`);
  const { le, ...rest } = matchers;
  if (le === undefined) return q.fail('names no le="…" bucket: the bucket at the threshold counts the good requests');
  const bound = parseLe(le);
  if (!Number.isFinite(bound) || bound <= 0) return q.fail(`le="${le}" is not a finite bucket bound above 0`);
  const base = metric.slice(0, -"_bucket".length);
  const unit = statedUnit ?? unitOf({ metric: base });
  return {
    // A unit the name already implies is not stored, so an export imports back the same.
    source: { metric: base, matchers: rest, ...(unit !== unitOf({ metric: base }) && { unit }) },
    thresholdMs: Number(unitToMs(bound, unit).toPrecision(12)),
  };
}

function readTotal(reader: Reader, good: Omit<MetricSource, "preset">): boolean {
  const query = prometheusQuery(reader);
  if (query === null) return false;
  const q = reader.at("metricSource").at("spec").at("query");
  const parsed = parseSelector(query);
  if (!parsed.ok) return q.fail(`cannot be imported: ${parsed.reason}`) ?? false;
  const { metric, matchers } = parsed.selector;
  const { le, ...rest } = matchers;
  const sameMatchers =
    Object.keys(rest).length === Object.keys(good.matchers).length &&
    Object.entries(rest).every(([k, v]) => good.matchers[k] === v);
  const isCount = metric === `${good.metric}_count` && le === undefined;
  const isInf = metric === `${good.metric}_bucket` && le !== undefined && parseLe(le) === Number.POSITIVE_INFINITY;
  if (!(isCount || isInf) || !sameMatchers)
    return (
      q.fail(
        `must select ${good.metric}_count (or ${good.metric}_bucket with le="+Inf") with the good query's matchers, so both count the same requests`,
      ) ?? false
    );
  return true;
}

function prometheusQuery(reader: Reader): string | null {
  const source = reader.at("metricSource");
  const type = source.at("type").string({ max: 100 });
  if (type === null) return null;
  if (type.toLowerCase() !== "prometheus") return source.at("type").fail(`"${type}" is not a Prometheus source`);
  return source.at("spec").at("query").string({ max: 10_000 });
}

const ROLLING_DAYS: Record<string, number> = { "7d": 7, "1w": 7, "28d": 28, "4w": 28, "30d": 30 };
const CALENDAR_UNITS: Record<string, "week" | "month"> = { "1w": "week", "7d": "week", "1M": "month" };

function readWindow(reader: Reader): Partial<SloInput> | null {
  const windows = reader.list();
  if (!windows) return null;
  if (windows.length !== 1) return reader.fail("give exactly one time window");
  const window = windows[0]!;
  const duration = window.at("duration").string({ max: 20 });
  if (duration === null) return null;
  if (window.at("isRolling").value === false) {
    const unit = CALENDAR_UNITS[duration];
    if (!unit) return window.at("duration").fail(`a calendar window of ${duration} is not supported: use 1w or 1M`);
    const timeZone = window.at("calendar").at("timeZone").string({ optional: true, max: 64 }) ?? "UTC";
    return { windowKind: "calendar", calendarUnit: unit, timeZone };
  }
  const days = ROLLING_DAYS[duration];
  if (!days) return window.at("duration").fail(`a rolling window of ${duration} is not supported: use 7d, 28d or 30d`);
  return { windowKind: "rolling", windowDays: days as 7 | 28 | 30 };
}

function readSlo(doc: Reader): Candidate | null {
  const problemsBefore = Object.keys(doc.problems).length;
  const spec = doc.at("spec");
  const name = nameOf(doc.at("metadata"), nameSchema("Name", 120));
  const service = spec.at("service").string({ max: 64 });
  if (spec.at("indicatorRef").has())
    spec.at("indicatorRef").fail("indicatorRef is not supported: put the indicator inline in the SLO");
  const indicator = spec.at("indicator");
  const indicatorMetadata = indicator.at("metadata");
  const indicatorName =
    indicatorMetadata.at("displayName").has() || indicatorMetadata.at("name").has()
      ? nameOf(indicatorMetadata, nameSchema("Indicator", 60))
      : "TTFT";
  const sli = indicator.at("spec");
  let measured: ReturnType<typeof readGood> = null;
  if (sli.at("thresholdMetric").has()) {
    // The usual reason is a non-Prometheus source; say that first when it is so.
    const source = sli.at("thresholdMetric");
    if (prometheusQuery(source) !== null)
      source.fail("a thresholdMetric cannot be imported: give a ratioMetric of a histogram's bucket over its count");
  } else if (sli.at("ratioMetric").has()) {
    const ratio = sli.at("ratioMetric");
    if (ratio.at("bad").has()) ratio.at("bad").fail("a bad query cannot be imported: give good and total");
    if (ratio.at("counter").has() && ratio.at("counter").value !== true)
      ratio.at("counter").fail("must be true: the histogram's buckets are counters");
    const unit = doc.at("metadata").at("annotations").at(ANNOTATION.unit).string({ optional: true, max: 20 });
    if (unit != null && !(HISTOGRAM_UNITS as readonly string[]).includes(unit))
      doc
        .at("metadata")
        .at("annotations")
        .at(ANNOTATION.unit)
        .fail(`must be one of ${HISTOGRAM_UNITS.join(", ")}`);
    measured = readGood(
      ratio.at("good"),
      unit && (HISTOGRAM_UNITS as readonly string[]).includes(unit) ? (unit as HistogramUnit) : undefined,
    );
    if (measured) readTotal(ratio.at("total"), measured.source);
  } else {
    sli.fail("needs a ratioMetric (good: a _bucket{le=…} series, total: the same histogram's _count)");
  }
  const window = readWindow(spec.at("timeWindow"));
  const method = spec.at("budgetingMethod").string({ max: 40 });
  const objectives = spec.at("objectives").list();
  let objective: number | null = null;
  let slices: Partial<SloInput> = { budgetingMethod: "occurrences" };
  if (objectives && objectives.length !== 1) spec.at("objectives").fail("give exactly one objective");
  else if (objectives) {
    const first = objectives[0]!;
    objective = first.at("target").has()
      ? first.at("target").number()
      : first.at("targetPercent").has()
        ? (first.at("targetPercent").number() ?? NaN) / 100
        : first.at("target").fail("is required (a share such as 0.99)");
    if (method === "Timeslices") {
      const sliceWindow = first.at("timeSliceWindow").string({ max: 20 });
      const minutes = sliceWindow ? /^([1-9][0-9]?)m$/.exec(sliceWindow)?.[1] : undefined;
      if (sliceWindow && !minutes) first.at("timeSliceWindow").fail("must be whole minutes, e.g. 5m");
      slices = {
        budgetingMethod: "timeslices",
        timesliceMinutes: minutes ? Number(minutes) : null,
        timesliceTarget: first.at("timeSliceTarget").number(),
      };
    }
  }
  if (method !== null && method !== "Occurrences" && method !== "Timeslices")
    spec.at("budgetingMethod").fail(`${method} is not supported: use Occurrences or Timeslices`);
  if (Object.keys(doc.problems).length > problemsBefore || !name || !service || !measured || !window) return null;
  const annotations = doc.at("metadata").at("annotations");
  const preset = annotations.at(ANNOTATION.preset).string({ optional: true, max: 40 });
  const result = sloInputSchema.safeParse({
    name,
    indicator: indicatorName,
    source: { preset: preset && (PRESET_IDS as string[]).includes(preset) ? preset : "custom", ...measured.source },
    thresholdMs: measured.thresholdMs,
    objective,
    thresholdMode: annotations.at(ANNOTATION.thresholdMode).string({ optional: true, max: 20 }) ?? "snap",
    ...window,
    ...slices,
  });
  if (!result.success) {
    for (const [field, message] of Object.entries(fieldErrors(result.error)))
      doc.problems[`${doc.path}.spec (${field})`] ??= message;
    return null;
  }
  return { kind: "SLO", path: doc.path, service, slo: result.data };
}

/** metadata.displayName, else metadata.name, by the app's own rules for names. */
function nameOf(metadata: Reader, schema: z.ZodType<string>): string | null {
  const field = metadata.at("displayName").has() ? metadata.at("displayName") : metadata.at("name");
  return field.checked(schema);
}

function readService(doc: Reader): Candidate | null {
  const metadata = doc.at("metadata");
  const slug = metadata.at("name").string({ max: 64 });
  if (slug === null) return null;
  if (!slugSchema.safeParse(slug).success)
    return metadata.at("name").fail("must be a slug: lowercase letters, digits and single dashes");
  const name = metadata.at("displayName").has() ? metadata.at("displayName").checked(nameSchema("Name", 120)) : slug;
  const description = doc.at("spec").at("description").has()
    ? doc.at("spec").at("description").checked(textSchema("Description", 2000))
    : "";
  if (name === null || description === null) return null;
  return { kind: "Service", path: doc.path, slug, name, description };
}

/** Parses every document (off the event loop); all problems at once, each under its document path. */
export async function readOpenSlo(text: string): Promise<{ candidates: Candidate[]; problems: Problems }> {
  const problems: Problems = {};
  const list = await parseYamlDocuments(text, {
    maxDocuments: OPENSLO_LIMITS.documents,
    maxAliasCount: OPENSLO_LIMITS.aliases,
  });
  const candidates: Candidate[] = [];
  list.forEach(({ value, error }, i) => {
    const path = `docs[${i}]`;
    if (error) {
      problems[path] = error;
      return;
    }
    if (value === null || value === undefined) return; // an empty document, e.g. after a trailing ---
    const doc = new Reader(problems, path, value);
    const apiVersion = doc.at("apiVersion").string({ max: 40 });
    if (apiVersion !== null && apiVersion !== "openslo/v1")
      doc.at("apiVersion").fail(`${apiVersion} is not supported: use openslo/v1`);
    const kind = doc.at("kind").string({ max: 40 });
    const candidate =
      kind === "SLO"
        ? readSlo(doc)
        : kind === "Service"
          ? readService(doc)
          : kind === null
            ? null
            : doc.at("kind").fail(`${kind} documents cannot be imported: only Service and SLO`);
    if (candidate && apiVersion === "openslo/v1") candidates.push(candidate);
  });
  if (candidates.length === 0 && Object.keys(problems).length === 0) problems.docs = "has no OpenSLO documents";
  return { candidates, problems };
}

/** JSON with object keys sorted, so equal values compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function sameSlo(row: SloRow, slo: SloInput): boolean {
  const keys = Object.keys(slo) as (keyof SloInput)[];
  return keys.every((key) => canonical(row[key as keyof SloRow]) === canonical(slo[key]));
}

export const importOpenSlo = mutation(
  "openslo.import",
  async ({
    db,
    prom,
    actor,
    text,
  }: {
    db: Db;
    prom?: CoalescingClient | null;
    actor: Actor;
    text: string;
  }): Promise<{ imported: Imported[] }> => {
    const { candidates, problems } = await readOpenSlo(text);
    const services = new Map<string, Extract<Candidate, { kind: "Service" }>>();
    for (const c of candidates) if (c.kind === "Service") services.set(c.slug, c);
    const existing = new Map<string, Awaited<ReturnType<typeof findServiceRow>>>();
    for (const c of candidates) {
      const slug = c.kind === "Service" ? c.slug : c.service;
      if (!existing.has(slug)) existing.set(slug, await findServiceRow(db, slug));
      if (c.kind === "SLO" && !existing.get(slug) && !services.has(slug))
        problems[`${c.path}.spec.service`] ??= `no service “${slug}”: create it first or add a Service document for it`;
    }
    const seen = new Set<string>();
    for (const c of candidates)
      if (c.kind === "SLO") {
        const key = `${c.service}\u0000${c.slo.name}`;
        if (seen.has(key)) problems[`${c.path}.metadata`] ??= `a second SLO called “${c.slo.name}” for ${c.service}`;
        seen.add(key);
      }
    if (Object.keys(problems).length > 0) {
      const documents = new Set(Object.keys(problems).map((p) => p.match(/^docs\[\d+\]/)?.[0] ?? p));
      throw new AppError(
        "VALIDATION_FAILED",
        `Nothing was imported: ${plural(documents.size, "document")} cannot be imported. ${Object.entries(problems)
          .slice(0, 3)
          .map(([path, message]) => `${path}: ${message}`)
          .join("; ")}`,
        problems,
      );
    }

    // OpenSLO has no word for the kind: each source gets the one Prometheus has (and the unit its
    // metadata states), or none while Prometheus cannot tell (read as Prometheus has it later).
    for (const c of candidates)
      if (c.kind === "SLO") c.slo = { ...c.slo, source: await withKind(prom ?? null, c.slo.source, { unit: true }) };

    // A document that creates a service needs the right to create services, too.
    if ([...services.keys()].some((slug) => !existing.get(slug))) authorize(actor, "service.create");

    const imported = await db.$transaction(async (tx) => {
      const done: Imported[] = [];
      for (const service of services.values()) {
        if (existing.get(service.slug)) {
          done.push({ kind: "Service", name: service.slug, service: service.slug, action: "unchanged" });
          continue;
        }
        const first = candidates.find((c) => c.kind === "SLO" && c.service === service.slug);
        const slo = first?.kind === "SLO" ? first.slo : null;
        await insertServiceWithBudget(tx, {
          slug: service.slug,
          name: service.name,
          description: service.description,
          author: authorOf(actor),
          document: {
            indicator: slo?.indicator ?? "TTFT",
            targetMs: slo?.thresholdMs ?? 700,
            quantile: 0.95,
            stages: [],
            endToEndSource: slo?.source ?? null,
          },
          changes: [],
        });
        done.push({ kind: "Service", name: service.slug, service: service.slug, action: "created" });
      }
      for (const c of candidates) {
        if (c.kind !== "SLO") continue;
        const row = await tx.service.findUniqueOrThrow({ where: { slug: c.service }, select: { id: true } });
        const current = (await listSloRows(tx, row.id)).find((s) => s.name === c.slo.name);
        if (!current) {
          await insertSlo(tx, row.id, c.slo, authorOf(actor));
          done.push({ kind: "SLO", name: c.slo.name, service: c.service, action: "created" });
        } else if (sameSlo(current, c.slo)) {
          done.push({ kind: "SLO", name: c.slo.name, service: c.service, action: "unchanged" });
        } else {
          await updateSloIfVersion(tx, row.id, current.id, current.version, c.slo, authorOf(actor));
          done.push({ kind: "SLO", name: c.slo.name, service: c.service, action: "updated" });
        }
      }
      for (const entry of done.filter((i) => i.action !== "unchanged"))
        await recordAudit(tx, actor, {
          action: "openslo.import",
          service: entry.service,
          target: entry.name,
          summary: `OpenSLO import ${entry.action} ${entry.kind === "SLO" ? `SLO “${entry.name}”` : `service “${entry.name}”`}`,
        });
      return done;
    });
    forgetCachedSlos();
    rulesChanged(db);
    return { imported };
  },
);

/** An RFC 1123 label for metadata.name: "TTFT under 700 ms" → "ttft-under-700-ms". */
function dnsLabel(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 56) || "slo";
  let label = base;
  for (let i = 2; taken.has(label); i++) label = `${base}-${i}`;
  taken.add(label);
  return label;
}

function sloDocument(slug: string, slo: SloRow, taken: Set<string>) {
  const histogramUnit = unitOf(slo.source);
  const le = promNumber(msToUnit(slo.thresholdMs, histogramUnit));
  const prometheus = (query: string) => ({ metricSource: { type: "Prometheus", spec: { query } } });
  const window =
    slo.windowKind === "calendar"
      ? {
          duration: slo.calendarUnit === "week" ? "1w" : "1M",
          isRolling: false,
          calendar: { startTime: "2024-01-01 00:00:00", timeZone: slo.timeZone },
        }
      : { duration: `${slo.windowDays}d`, isRolling: true };
  const unit = slo.budgetingMethod === "timeslices" ? `${slo.timesliceMinutes}-minute slices` : "requests";
  return {
    apiVersion: "openslo/v1",
    kind: "SLO",
    metadata: {
      name: dnsLabel(slo.name, taken),
      displayName: slo.name,
      annotations: {
        [ANNOTATION.preset]: slo.source.preset,
        [ANNOTATION.thresholdMode]: slo.thresholdMode,
        [ANNOTATION.unit]: histogramUnit,
      },
    },
    spec: {
      description: `${promNumber(slo.objective * 100)} % of ${unit} at most ${promNumber(slo.thresholdMs)} ms.`,
      service: slug,
      indicator: {
        metadata: { name: dnsLabel(slo.indicator, new Set()), displayName: slo.indicator },
        spec: {
          ratioMetric: {
            counter: true,
            ...(kindOf(slo.source) === "native"
              ? {
                  // A native histogram has no bucket at the threshold: the observations at or under
                  // it are the count times histogram_fraction, itself a counter.
                  good: prometheus(
                    `histogram_fraction(0, ${le}, ${selector(slo.source.metric, slo.source.matchers)}) * histogram_count(${selector(slo.source.metric, slo.source.matchers)})`,
                  ),
                  total: prometheus(`histogram_count(${selector(slo.source.metric, slo.source.matchers)})`),
                }
              : {
                  good: prometheus(selector(`${slo.source.metric}_bucket`, { ...slo.source.matchers, le })),
                  total: prometheus(selector(`${slo.source.metric}_count`, slo.source.matchers)),
                }),
          },
        },
      },
      timeWindow: [window],
      budgetingMethod: slo.budgetingMethod === "timeslices" ? "Timeslices" : "Occurrences",
      objectives: [
        {
          displayName: slo.name,
          target: slo.objective,
          ...(slo.budgetingMethod === "timeslices" && {
            timeSliceTarget: slo.timesliceTarget,
            timeSliceWindow: `${slo.timesliceMinutes}m`,
          }),
        },
      ],
    },
  };
}

export async function exportOpenSlo({
  db,
  slug,
}: {
  db: Db;
  slug: string;
}): Promise<{ text: string; filename: string }> {
  const service = await getServiceOrThrow({ db, slug });
  const slos = await listSloRows(db, service.id);
  const taken = new Set<string>();
  const documents = [
    {
      apiVersion: "openslo/v1",
      kind: "Service",
      metadata: { name: service.slug, displayName: service.name },
      spec: { description: service.description },
    },
    ...slos.map((slo) => sloDocument(service.slug, slo, taken)),
  ];
  const text =
    "# OpenSLO v1, exported by Latency Budgets. POST it to /api/openslo to import it back.\n" +
    documents.map((d) => stringifyYaml(d, { lineWidth: 0 })).join("---\n");
  return { text, filename: `${service.slug}.openslo.yaml` };
}
