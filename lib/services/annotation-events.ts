import "server-only";
import { insertAnnotation } from "@/lib/db/annotations";
import type { Client } from "@/lib/db/users";
import type { AnnotationKind } from "@/lib/schemas/annotation";
import { actorColumns, type Actor } from "./actor";

// The app's own changes as annotations: recordAudit calls annotateEvent in the change's
// transaction, so every audited change on-call should see is on the timeline, exactly when the
// change commits.

export function authorColumns(actor: Actor) {
  const { actorKind, actorId, actorName } = actorColumns(actor);
  return { authorKind: actorKind, authorId: actorId, authorName: actorName };
}

/** Audit actions whose changes on-call should see on a timeline, with the kind they show as. */
const EVENT_KINDS: Record<string, AnnotationKind> = {
  "budget.save": "budget",
  "budget.restore": "budget",
  "slo.create": "slo",
  "slo.update": "slo",
  "slo.delete": "slo",
  "openslo.import": "slo",
  "experiment.status": "experiment",
};

/**
 * Writes the app's own change as an annotation, in the change's transaction (called by
 * recordAudit, so every audited change of a kind on-call cares about is on the timeline).
 */
export async function annotateEvent(
  db: Client,
  actor: Actor,
  event: { action: string; service?: string | null; summary: string },
): Promise<void> {
  const kind = EVENT_KINDS[event.action];
  if (!kind || !event.service) return;
  await insertAnnotation(db, event.service, { kind, text: event.summary.slice(0, 500), ...authorColumns(actor) });
}
