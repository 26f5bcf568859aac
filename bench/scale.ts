// Scale curves: the cost as the work grows, each with its stated bound.
// - Components per service (1, 10, 40, 100 = the cap; 480 is refused): the waterfall API uncached
//   against the same query sent straight to Prometheus plus the route floor, ≤ 1.1 ×.
// - Services on the status board (1, 100, 1,000): Prometheus requests and database queries per
//   board, which should not grow with the services (one query, not one per service).
// - The audit trail at 1,000,000 entries and a budget's history at 10,000 revisions: the last page
//   costs what the first does (≤ 1.5 ×; keyset pages, never OFFSET).
import type { Db } from "../lib/db/client";
import type { AppError } from "../lib/errors";
import { createPrometheusClient } from "../lib/prometheus/client";
import { coalesce } from "../lib/prometheus/coalesce";
import { GROUP_LABEL } from "../lib/prometheus/buckets";
import { taggedBucketQuery } from "../lib/prometheus/promql";
import { componentKey } from "../lib/domain/waterfall";
import { LIMITS } from "../lib/schemas/budget";
import { systemActor } from "../lib/services/actor";
import { listAudit } from "../lib/services/audit";
import { listRevisions } from "../lib/services/budgets";
import { createService } from "../lib/services/services";
import { getStatusBoard } from "../lib/services/status";
import { median, timed, type Row } from "./measure";
import type { BenchStack } from "./stack";

const SYSTEM = systemActor("bench");
const RAG = {
  preset: "generic",
  metric: "llm_stage_duration_seconds",
  matchers: { service: "chat-api", stage: "rag" },
};

/** A budget of `count` components, `perStage` to a stage (ten unless said). */
function stagesOf(count: number, source: (i: number) => typeof RAG, perStage = 10) {
  return Array.from({ length: Math.ceil(count / perStage) }, (_, s) => ({
    name: `s${s}`,
    components: Array.from({ length: Math.min(perStage, count - s * perStage) }, (_, c) => ({
      name: `c${s * perStage + c}`,
      budgetMs: { p50: null, p95: 50, p99: null },
      source: source(s * perStage + c),
    })),
  }));
}

async function componentCurve(stack: BenchStack, db: Db): Promise<Row[]> {
  const rows: Row[] = [];
  const floor = () => fetch(`${stack.appUrl}/api/services/NO_SUCH!/waterfall`).then((r) => r.arrayBuffer());
  for (const count of [1, 10, 40, LIMITS.componentsPerBudget]) {
    const slug = `scale-${count}`;
    const stages = stagesOf(count, () => RAG);
    await createService({ db, actor: SYSTEM, input: { slug, name: slug, stages } });
    const sources = stages.flatMap((stage, s) =>
      stage.components.map((c, j) => ({ key: componentKey(s, j), source: c.source })),
    );
    const query = taggedBucketQuery(sources, { fn: "rate", window: "5m", groupLabel: GROUP_LABEL });
    const raw = (t: number) =>
      fetch(`${stack.prometheusUrl}/api/v1/query`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ query, time: String(t) }),
      }).then((r) => r.arrayBuffer());
    const api = (t: number) =>
      fetch(`${stack.appUrl}/api/services/${slug}/waterfall?window=5m&at=${t}`).then((r) => r.arrayBuffer());
    const now = Math.floor(Date.now() / 1000) - 30;
    for (let i = 0; i < 3; i++) await Promise.all([raw(now - i), api(now - 100 - i * 5)]);
    const rawMs: number[] = [];
    const apiMs: number[] = [];
    const floorMs: number[] = [];
    // Each request its own time (5 s apart, the app's step), so no cache answers either side.
    for (let i = 0; i < 25; i++) {
      const t = now - 300 - i * 5;
      rawMs.push(await timed(() => raw(t)));
      apiMs.push(await timed(() => api(t)));
      floorMs.push(await timed(floor));
    }
    const [r, a, f] = [median(rawMs), median(apiMs), median(floorMs)];
    rows.push({
      name: `waterfall API, ${count} component${count === 1 ? "" : "s"}${count === LIMITS.componentsPerBudget ? " (the cap)" : ""}, vs Prometheus + the route floor`,
      value: `median ${a.toFixed(1)} ms = ${(a / (r + f)).toFixed(2)} × (${r.toFixed(1)} + ${f.toFixed(1)} ms)`,
      target: "≤ 1.10 ×",
      met: a / (r + f) <= 1.1,
    });
  }
  const refused = await createService({
    db,
    actor: SYSTEM,
    // 40 stages of 12: inside the per-stage limits, refused for the total alone.
    input: { slug: "scale-480", name: "scale-480", stages: stagesOf(480, () => RAG, LIMITS.componentsPerStage) },
  }).then(
    () => null,
    (error: AppError) => `${error.message} ${Object.values(error.fields ?? {}).join("; ")}`,
  );
  rows.push({
    name: "480 components: refused at the cap",
    value: refused ?? "accepted",
    target: `refused above ${LIMITS.componentsPerBudget} components per budget`,
    met: refused !== null,
  });
  return rows;
}

async function statusBoardCurve(stack: BenchStack, db: Db): Promise<Row[]> {
  const rows: Row[] = [];
  let dbQueries = 0;
  const counted = db.$extends({
    query: {
      async $allOperations({ args, query }) {
        dbQueries++;
        return query(args);
      },
    },
  }) as unknown as Db;
  // Its own client through the counting proxy, keeping nothing: every board asks afresh.
  const prom = coalesce(createPrometheusClient(stack.prometheusUrl), { ttlMs: 0 });
  let created = (await getStatusBoard({ db, prom: null })).services.length;
  let first: { promRequests: number; dbQueries: number } | undefined;
  // The seed's few services, then 100 and 1,000.
  for (const target of [created, 100, 1000]) {
    // Each service its own series selector (no data), so no two share a query.
    for (; created < target; created++)
      await createService({
        db,
        actor: SYSTEM,
        input: {
          slug: `board-${created}`,
          name: `board-${created}`,
          stages: stagesOf(3, (i) => ({ ...RAG, matchers: { service: `board-${created}`, stage: `s${i}` } })),
        },
      });
    const beforeProm = stack.prometheusRequests();
    dbQueries = 0;
    const ms = await timed(() => getStatusBoard({ db: counted, prom }));
    const promRequests = stack.prometheusRequests() - beforeProm;
    const services = created;
    // The seed's services (with their SLOs, each its own statuses) set the figures; the services
    // added have no SLOs, so a board that asks per service shows it in both counts.
    first ??= { promRequests, dbQueries };
    rows.push({
      name: `status board with ${services} service${services === 1 ? "" : "s"}`,
      value: `${ms.toFixed(0)} ms, ${promRequests} Prometheus requests (${(promRequests / services).toFixed(1)} per service), ${dbQueries} database queries (${(dbQueries / services).toFixed(1)} per service)`,
      target: "no more Prometheus requests or database queries than with the seed's services",
      met: !first || (promRequests <= first.promRequests && dbQueries <= first.dbQueries),
    });
  }
  return rows;
}

async function pageCurve(name: string, first: () => Promise<unknown>, last: () => Promise<unknown>): Promise<Row> {
  for (let i = 0; i < 3; i++) await Promise.all([first(), last()]);
  const firstMs: number[] = [];
  const lastMs: number[] = [];
  for (let i = 0; i < 15; i++) {
    firstMs.push(await timed(first));
    lastMs.push(await timed(last));
  }
  const [f, l] = [median(firstMs), median(lastMs)];
  return {
    name,
    value: `last page ${l.toFixed(1)} ms = ${(l / f).toFixed(2)} × the first page's ${f.toFixed(1)} ms`,
    target: "≤ 1.5 ×",
    met: l / f <= 1.5,
  };
}

async function historyCurves(db: Db): Promise<Row[]> {
  // 1,000,000 audit entries, written in bulk (the trail is append-only: inserts are allowed).
  const AUDIT_ROWS = 1_000_000;
  const started = performance.now();
  await db.$executeRawUnsafe(`
    INSERT INTO "AuditEntry" ("at", "actorKind", "actorName", "action", "serviceSlug", "target", "summary")
    SELECT now() - make_interval(secs => ${AUDIT_ROWS} - g), 'system', 'bench', 'budget.save', 'chat-api',
           'chat-api', 'Saved the budget (bench entry ' || g || ')'
    FROM generate_series(1, ${AUDIT_ROWS}) AS g`);
  const [oldest] = await db.$queryRawUnsafe<{ min: bigint }[]>(`SELECT min(id) AS min FROM "AuditEntry"`);
  const min = oldest!.min;
  console.log(
    `  wrote ${AUDIT_ROWS.toLocaleString()} audit entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const audit = await pageCurve(
    `audit trail of ${AUDIT_ROWS.toLocaleString()} entries: a page of 50 at the end vs at the start`,
    () => listAudit({ db, actor: SYSTEM, query: { limit: "50" } }),
    () => listAudit({ db, actor: SYSTEM, query: { limit: "50", before: String(min + 51n) } }),
  );

  // 10,000 revisions of one budget.
  const REVISIONS = 10_000;
  await createService({
    db,
    actor: SYSTEM,
    input: { slug: "history-10k", name: "history-10k", stages: stagesOf(8, () => RAG) },
  });
  await db.$executeRawUnsafe(`
    INSERT INTO "BudgetRevision" ("id", "serviceId", "version", "author", "message", "snapshot", "changes")
    SELECT gen_random_uuid(), r."serviceId", r."version" + g, 'bench', 'revision ' || g, r."snapshot", '[]'::jsonb
    FROM "BudgetRevision" r JOIN "Service" s ON s."id" = r."serviceId"
    CROSS JOIN generate_series(1, ${REVISIONS - 1}) AS g
    WHERE s."slug" = 'history-10k' AND r."version" = 1`);
  const history = await pageCurve(
    `budget history of ${REVISIONS.toLocaleString()} revisions: the oldest page vs the newest`,
    () => listRevisions({ db, slug: "history-10k", query: {} }),
    () => listRevisions({ db, slug: "history-10k", query: { before: "51" } }),
  );
  return [audit, history];
}

export async function runScaleBench(stack: BenchStack, db: Db): Promise<Row[]> {
  // The board first, while the database holds only the seed's services.
  return [...(await statusBoardCurve(stack, db)), ...(await componentCurve(stack, db)), ...(await historyCurves(db))];
}
