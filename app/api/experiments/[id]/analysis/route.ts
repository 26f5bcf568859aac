import { json, route } from "@/lib/api/handle";
import { getAnalysis } from "@/lib/services/experiments/experiments";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }, viewer) =>
  json(await getAnalysis({ db: runtime().db, id, viewer })),
);
