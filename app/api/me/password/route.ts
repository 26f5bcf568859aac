import { json, readJson, route } from "@/lib/api/handle";
import { clientAddress } from "@/lib/net/peer";
import { changeOwnPassword } from "@/lib/services/auth/credentials";
import { runtime } from "@/lib/services/runtime";

// Body: { currentPassword, newPassword }. The caller's other sessions end.
export const POST = route(async (request, _params, actor) =>
  json(
    await changeOwnPassword({
      db: runtime().db,
      actor,
      input: await readJson(request),
      address: clientAddress(request.headers),
    }),
  ),
);
