import { json, queryOf, route, slugParam } from "@/lib/api/handle";
import { getReport } from "@/lib/services/report";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

// JSON for scripts; ?format=md for a wiki page (served as text/markdown, downloadable).
export const GET = route<{ slug: string }>(async (request, { slug }) => {
  const { report, format, markdown } = await getReport({
    ...runtime(),
    slug: slugParam(slug),
    query: queryOf(request),
  });
  if (format === "json") return json(report);
  return new Response(markdown, {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `inline; filename="${report.service.slug}-bottleneck-report.md"`,
      "cache-control": "no-store",
    },
  });
});
