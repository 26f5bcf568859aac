import { json, queryOf, route } from "@/lib/api/handle";
import { db } from "@/lib/db/client";
import { uploadSamples } from "@/lib/services/experiments/experiments";

// Per-request samples, streamed: CSV (text/csv, header row) or NDJSON (application/x-ndjson).
// ?onError=reject (default: one bad row stores nothing) or ?onError=skip (keep the good rows).
export const POST = route<{ id: string }>(async (request, { id }) =>
  json(
    await uploadSamples({
      db: db(),
      id,
      body: request.body,
      contentType: request.headers.get("content-type"),
      query: queryOf(request),
    }),
  ),
);
