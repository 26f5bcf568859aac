import { json, route } from "@/lib/api/handle";
import { getExperimentOrThrow } from "@/lib/services/experiments/experiments";
import { runtime } from "@/lib/services/runtime";

export const GET = route<{ id: string }>(async (_request, { id }, viewer) =>
  json(await getExperimentOrThrow({ db: runtime().db, id, viewer })),
);
