import { json, readJson, route } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { createOptimization, listOptimizations } from "@/lib/services/optimizations";

export const GET = route(async () => json(await listOptimizations({ db: db() })));

export const POST = route(async (request) =>
  json(await createOptimization({ db: db(), input: await readJson(request) }), { status: 201 }),
);
