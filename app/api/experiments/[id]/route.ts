import { json, route } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { getExperimentOrThrow } from "@/lib/services/experiments/experiments";

export const GET = route<{ id: string }>(async (_request, { id }) =>
  json(await getExperimentOrThrow({ db: db(), id })),
);
