import { errorResponse } from "@/lib/api/handle";
import { getAppMetrics } from "@/lib/services/app-metrics";

export const dynamic = "force-dynamic";

/** The app's own metrics for Prometheus, with Authorization: Bearer <LB_METRICS_TOKEN>. */
export async function GET(request: Request): Promise<Response> {
  try {
    const { text, contentType } = await getAppMetrics(request.headers);
    return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
