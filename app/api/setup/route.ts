import { json, readJson, route } from "@/lib/api/handle";
import { clientAddress } from "@/lib/net/peer";
import { setUpFirstAdmin } from "@/lib/services/auth/setup";
import { runtime } from "@/lib/services/runtime";

/** First run only: { code, email, name, password } becomes the first admin; 409 once anyone exists. */
export const POST = route(
  async (request) =>
    json(
      await setUpFirstAdmin({
        db: runtime().db,
        input: await readJson(request),
        address: clientAddress(request.headers),
      }),
      { status: 201 },
    ),
  { isPublic: true },
);
