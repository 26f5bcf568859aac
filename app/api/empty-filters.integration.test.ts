import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as notificationsRoute from "@/app/api/alerts/notifications/route";
import * as auditRoute from "@/app/api/audit/route";
import * as servicesRoute from "@/app/api/services/route";
import * as annotationsRoute from "@/app/api/services/[slug]/annotations/route";
import * as revisionsRoute from "@/app/api/services/[slug]/budget/revisions/route";
import * as tokensRoute from "@/app/api/tokens/route";
import { db } from "@/lib/db/client";
import { chatApi } from "@/prisma/seed-data";
import { newUser, sessionCookie } from "@/test/credentials";
import { call, type Handler } from "@/test/http";

// An HTML form sends every field, the blank ones as `name=`: an empty query parameter means "no
// filter", on every route, exactly as if it were left out.

afterAll(() => db().$disconnect());

let cookie: string;
let slug: string;

beforeAll(async () => {
  cookie = await sessionCookie((await newUser("admin")).email);
  slug = `empty-${randomUUID().slice(0, 8)}`;
  const created = await call(servicesRoute.POST as Handler, {
    method: "POST",
    json: { ...chatApi.service, slug, stages: chatApi.stages },
  });
  expect(created.status).toBe(201);
});

const get = (handler: unknown, query: string, params: Record<string, string> = {}) =>
  call(handler as Handler, { as: null, headers: { cookie }, path: `/api${query}`, params });

describe(`empty query parameters are no filter (${inject("databaseKind")})`, () => {
  it("GET /api/audit?actor=&service= answers 200 with the unfiltered list", async () => {
    const unfiltered = await get(auditRoute.GET, "");
    expect(unfiltered.status).toBe(200);
    // More than one service and more than one actor in it: nothing was filtered away.
    expect(unfiltered.body.some((e: { service: string | null }) => e.service === slug)).toBe(true);
    expect(new Set(unfiltered.body.map((e: { service: string | null }) => e.service)).size).toBeGreaterThan(1);

    const blank = await get(auditRoute.GET, "?actor=&service=");
    expect(blank.status, JSON.stringify(blank.body)).toBe(200);
    expect(blank.body).toEqual(unfiltered.body);
    // Every filter of the form blank at once, too.
    const allBlank = await get(auditRoute.GET, "?service=&actor=&before=&limit=");
    expect(allBlank.status, JSON.stringify(allBlank.body)).toBe(200);
    expect(allBlank.body).toEqual(unfiltered.body);
    // A filter that is filled in still filters.
    const filtered = await get(auditRoute.GET, `?actor=&service=${slug}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.length).toBeGreaterThan(0);
    expect(filtered.body.every((e: { service: string | null }) => e.service === slug)).toBe(true);
  });

  it.each([
    ["GET /api/services/{slug}/annotations", annotationsRoute.GET, "?range=&end="],
    ["GET /api/services/{slug}/budget/revisions", revisionsRoute.GET, "?limit=&before="],
    ["GET /api/alerts/notifications", notificationsRoute.GET, "?service=&limit=&before="],
    ["GET /api/tokens", tokensRoute.GET, "?all="],
  ])("%s with blank filters answers as without them", async (_name, handler, blank) => {
    const without = await get(handler, "", { slug });
    expect(without.status, JSON.stringify(without.body)).toBe(200);
    const withBlank = await get(handler, blank, { slug });
    expect(withBlank.status, JSON.stringify(withBlank.body)).toBe(200);
    expect(withBlank.body).toEqual(without.body);
  });
});
