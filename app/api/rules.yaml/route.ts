import { route, yamlQueryOf, yamlText } from "@/lib/api/handle";
import { getRulesFile } from "@/lib/services/rules";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** Every service's recording and alerting rules as one Prometheus rule file. */
export const GET = route(async (request) => {
  const file = await getRulesFile({
    ...runtime(),
    query: yamlQueryOf(request),
    dashboardUrl: new URL(request.url).origin,
  });
  return yamlText(file.text, request, file.filename);
});
