import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/lib/db/create";
import { testPoolSize } from "@/test/databases";
import { newUser } from "@/test/credentials";
import { openSloDocument } from "@/test/openslo-documents";
import { alertPayload } from "@/test/rights-cases";
import { chatApi } from "@/prisma/seed-data";
import { SEED_EXPERIMENT } from "@/prisma/seed-experiment";
import { systemActor } from "./actor";
import { receiveAlertmanagerWebhook } from "./alerts";
import { createToken, revokeToken } from "./auth/tokens";
import { resetPassword } from "./auth/credentials";
import { createUser, updateUser } from "./auth/users";
import { getBudget, saveBudget } from "./budgets";
import { createExperiment, setExperimentStatus, uploadSamples } from "./experiments/experiments";
import { importOpenSlo } from "./openslo";
import { createOptimization } from "./optimizations";
import { createService } from "./services";
import { createSlo, updateSlo } from "./slos";

// Every change and its audit entry are written by one transaction: both are stored or neither
// is, so a crash between them cannot lose the record. PostgreSQL says so itself: a row's xmin is
// the id of the transaction that wrote it.

const db = createDb(inject("databaseUrl"), testPoolSize());
afterAll(() => db.$disconnect());
const system = systemActor("audit-tests");

async function writerOf(table: string, where: string, value: string): Promise<string> {
  const rows = await db.$queryRawUnsafe<{ xmin: string }[]>(
    `SELECT xmin::text AS xmin FROM "${table}" WHERE "${where}" = $1 ORDER BY xmin::text::bigint DESC LIMIT 1`,
    value,
  );
  return rows[0]!.xmin;
}

async function lastAuditWriter(action: string): Promise<string> {
  const rows = await db.$queryRawUnsafe<{ xmin: string }[]>(
    `SELECT xmin::text AS xmin FROM "AuditEntry" WHERE action = $1 ORDER BY id DESC LIMIT 1`,
    action,
  );
  return rows[0]!.xmin;
}

describe(`the audit entry commits with its change (${inject("databaseKind")})`, () => {
  const slug = `audit-tx-${randomUUID().slice(0, 8)}`;

  it("services, budgets, SLOs and OpenSLO imports", async () => {
    await createService({ db, actor: system, input: { ...chatApi.service, slug, stages: chatApi.stages } });
    const serviceId = (await db.service.findUniqueOrThrow({ where: { slug } })).id;
    expect(await lastAuditWriter("service.create")).toBe(await writerOf("Service", "slug", slug));

    await saveBudget({ db, actor: system, slug, input: { ...(await getBudget({ db, slug })), targetMs: 650 } });
    expect(await lastAuditWriter("budget.save")).toBe(await writerOf("Budget", "serviceId", serviceId));

    const slo = await createSlo({ db, actor: system, slug, input: chatApi.slos![0] });
    expect(await lastAuditWriter("slo.create")).toBe(await writerOf("Slo", "id", slo.id));
    await updateSlo({
      db,
      actor: system,
      slug,
      id: slo.id,
      input: { ...chatApi.slos![0], objective: 0.995, version: 1 },
    });
    expect(await lastAuditWriter("slo.update")).toBe(await writerOf("Slo", "id", slo.id));

    await importOpenSlo({ db, actor: system, text: openSloDocument({ service: slug, name: "imported" }) });
    const imported = await db.slo.findFirstOrThrow({ where: { serviceId, name: "imported" } });
    expect(await lastAuditWriter("openslo.import")).toBe(await writerOf("Slo", "id", imported.id));
  });

  it("experiments, uploads, decisions, the catalog and Alertmanager deliveries", async () => {
    const experiment = await createExperiment({ db, actor: system, input: { ...SEED_EXPERIMENT, service: slug } });
    expect(await lastAuditWriter("experiment.create")).toBe(await writerOf("Experiment", "id", experiment.id));
    const csv = "variant,ttft_ms\ncontrol,300\ntreatment,280\n";
    await uploadSamples({
      db,
      actor: system,
      id: experiment.id,
      body: new Blob([csv]).stream() as ReadableStream<Uint8Array>,
      contentType: "text/csv",
      query: {},
    });
    expect(await lastAuditWriter("experiment.upload")).toBe(
      await writerOf("ExperimentUpload", "experimentId", experiment.id),
    );
    await setExperimentStatus({ db, actor: system, id: experiment.id, input: { version: 1, status: "stopped" } });
    expect(await lastAuditWriter("experiment.status")).toBe(await writerOf("Experiment", "id", experiment.id));

    const name = `Audit ${randomUUID().slice(0, 6)}`;
    await createOptimization({ db, actor: system, input: { name, component: "LLM", savingMs: 5, costPct: 1 } });
    expect(await lastAuditWriter("optimization.create")).toBe(await writerOf("Optimization", "name", name));

    const delivery = alertPayload(slug);
    await receiveAlertmanagerWebhook({ db, actor: { kind: "alertmanager" }, input: delivery });
    const fingerprint = delivery.alerts[0]!.fingerprint;
    expect(await lastAuditWriter("alert.receive")).toBe(
      await writerOf("AlertNotification", "fingerprint", fingerprint),
    );
  });

  it("people and tokens", async () => {
    const admin = await newUser("admin");
    const person = await createUser({
      db,
      actor: admin,
      input: {
        email: `audit-${randomUUID().slice(0, 6)}@example.test`,
        name: "P",
        role: "viewer",
        password: "a long enough password",
      },
    });
    expect(await lastAuditWriter("user.create")).toBe(await writerOf("User", "id", person.id));
    await updateUser({ db, actor: admin, id: person.id, input: { role: "editor" } });
    expect(await lastAuditWriter("user.role")).toBe(await writerOf("User", "id", person.id));
    await updateUser({ db, actor: admin, id: person.id, input: { active: false } });
    expect(await lastAuditWriter("user.deactivate")).toBe(await writerOf("User", "id", person.id));
    await resetPassword({ db, actor: admin, id: person.id, input: { password: "another long password" } });
    expect(await lastAuditWriter("user.password-reset")).toBe(await writerOf("Account", "userId", person.id));

    const owner = await newUser("editor");
    const token = await createToken({ db, actor: owner, input: { name: "audited", scopes: ["read"] } });
    expect(await lastAuditWriter("token.create")).toBe(await writerOf("ApiToken", "id", token.id));
    await revokeToken({ db, actor: owner, id: token.id });
    expect(await lastAuditWriter("token.revoke")).toBe(await writerOf("ApiToken", "id", token.id));
  });
});
