import { json, queryOf, route } from "@/lib/api/handle";
import { uploadSamples } from "@/lib/services/experiments/experiments";
import { runtime } from "@/lib/services/runtime";

// Per-request samples, streamed: CSV (text/csv, header row) or NDJSON (application/x-ndjson).
// ?onError=reject (default: one bad row stores nothing) or ?onError=skip (keep the good rows).
export const POST = route<{ id: string }>(async (request, { id }, actor) =>
  json(
    await uploadSamples({
      db: runtime().db,
      actor,
      id,
      body: request.body,
      contentType: request.headers.get("content-type"),
      query: queryOf(request),
    }),
  ),
);
