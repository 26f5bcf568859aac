import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import * as rulesRoute from "@/app/api/rules.yaml/route";
import * as servicesRoute from "@/app/api/services/route";
import * as opensloRoute from "@/app/api/services/[slug]/openslo.yaml/route";
import * as slosRoute from "@/app/api/services/[slug]/slos/route";
import { db } from "@/lib/db/client";
import { chatApi } from "@/prisma/seed-data";
import { call, type Handler } from "@/test/http";

// Rows stored before the boundary refused line separators and controls (written here straight
// through Prisma, as an older version of the app could have) must not break the rule file that
// every service's alerts are in: promtool (Prometheus's own YAML and PromQL readers) takes it,
// and the names and label values read back as stored.

const run = promisify(execFile);
afterAll(() => db().$disconnect());

type Group = { name: string; rules: { expr: string; labels?: Record<string, string> }[] };

describe(`rule files from stored text with line separators (${inject("databaseKind")})`, () => {
  it("pass promtool check rules, in both formats, and the OpenSLO export reads back the stored names", async () => {
    const slug = `breaks-${randomUUID().slice(0, 8)}`;
    const created = await call(servicesRoute.POST as Handler, {
      method: "POST",
      json: { ...chatApi.service, slug, stages: chatApi.stages },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const slo = await call(slosRoute.POST as Handler, { method: "POST", params: { slug }, json: chatApi.slos![0] });
    expect(slo.status, JSON.stringify(slo.body)).toBe(201);

    const names = {
      service: "Fast\u2028answers\u0080",
      slo: "TTFT\u0085under 700\u2029ms",
      value: "chat\u0085api\u009b",
    };
    const service = await db().service.update({ where: { slug }, data: { name: names.service } });
    await db().slo.update({
      where: { id: slo.body.id },
      data: {
        name: names.slo,
        source: { ...chatApi.slos![0]!.source, matchers: { service: names.value } },
      },
    });
    const budget = await db().budget.findUniqueOrThrow({ where: { serviceId: service.id } });
    const stages = budget.stages as { name: string; components: { name: string }[] }[];
    stages[0]!.name = "Net\u2028work";
    stages[0]!.components[0]!.name = "Net\u0085work";
    await db().budget.update({ where: { serviceId: service.id }, data: { stages } });

    const dir = await mkdtemp(join(tmpdir(), "lb-rules-text-"));
    try {
      const files: Record<string, string> = {};
      for (const format of ["prometheus", "prometheusrule"]) {
        const answer = await call(rulesRoute.GET as Handler, { path: `/api/rules.yaml?format=${format}` });
        expect(answer.status, String(answer.body)).toBe(200);
        files[format] = answer.body as string;
      }
      const path = join(dir, "rules.yaml");
      await writeFile(path, files.prometheus!);
      const checked = await run("promtool", ["check", "rules", path]).catch(
        (error: { stdout: string; stderr: string }) => error,
      );
      expect(`${checked.stdout}${checked.stderr}`).toMatch(/SUCCESS: \d+ rules found/);
      for (const file of Object.values(files)) {
        expect(file).not.toMatch(/[\u0080-\u009f\u2028\u2029]/);
        expect(file).not.toContain(`# Left out: latency_budgets/${slug}`);
      }

      const groups = (parse(files.prometheus!) as { groups: Group[] }).groups.filter((g) =>
        g.name.includes(`/${slug}/`),
      );
      expect(
        (parse(files.prometheusrule!) as { spec: { groups: Group[] } }).spec.groups.filter((g) =>
          g.name.includes(`/${slug}/`),
        ),
      ).toEqual(groups);
      const sloRules = groups.find((g) => g.name === `latency_budgets/${slug}/slo/${names.slo}`)!;
      expect(sloRules.rules[0]!.labels!.slo).toBe(names.slo);
      expect(sloRules.rules[0]!.expr).toContain('service="chat\\u0085api\\u009b"');

      const exported = await call(opensloRoute.GET as Handler, { params: { slug } });
      expect(exported.status).toBe(200);
      const documents = (exported.body as string)
        .split(/^---$/m)
        .map((d) => parse(d) as { metadata: { displayName?: string } });
      expect(documents.map((d) => d.metadata.displayName)).toEqual([names.service, names.slo]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
