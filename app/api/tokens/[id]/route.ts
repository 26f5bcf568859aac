import { json, route } from "@/lib/api/handle";
import { revokeToken } from "@/lib/services/auth/tokens";
import { runtime } from "@/lib/services/runtime";

/** Revokes the token: it stops working at once and stays listed as revoked. */
export const DELETE = route<{ id: string }>(async (_request, { id }, actor) =>
  json(await revokeToken({ db: runtime().db, actor, id })),
);
