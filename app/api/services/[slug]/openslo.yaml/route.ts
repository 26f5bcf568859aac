import { route, slugParam, yamlText } from "@/lib/api/handle";
import { exportOpenSlo } from "@/lib/services/openslo";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

/** The service and its SLOs as OpenSLO v1 documents, ready to import elsewhere (or back). */
export const GET = route<{ slug: string }>(async (request, { slug }) => {
  const file = await exportOpenSlo({ db: runtime().db, slug: slugParam(slug) });
  return yamlText(file.text, request, file.filename);
});
