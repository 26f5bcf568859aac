import { json, route } from "@/lib/api/handle";
import { getHealth } from "@/lib/services/health";

export const dynamic = "force-dynamic";

export const GET = route(
  async () => {
    const health = await getHealth();
    return json(health, { status: health.ok ? 200 : 503 });
  },
  { isPublic: true },
);
