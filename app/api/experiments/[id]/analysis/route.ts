import { json, route } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { getAnalysis } from "@/lib/services/experiments/experiments";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) => json(await getAnalysis({ db: db(), id })));
