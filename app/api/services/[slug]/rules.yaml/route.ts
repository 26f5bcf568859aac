import { route, slugParam, yamlQueryOf, yamlText } from "@/lib/api/handle";
import { getRulesFile } from "@/lib/services/rules";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** One service's recording and alerting rules. */
export const GET = route<{ slug: string }>(async (request, { slug }) => {
  const file = await getRulesFile({
    ...runtime(),
    slug: slugParam(slug),
    query: yamlQueryOf(request),
    dashboardUrl: new URL(request.url).origin,
  });
  return yamlText(file.text, request, file.filename);
});
