import type { Metadata } from "next";
import { AlertsPanel } from "@/components/alerts/alerts-panel";
import { getAlerts, listNotifications } from "@/lib/services/alerts";
import { orNotFound, pageActor } from "@/lib/services/pages";
import { runtime } from "@/lib/services/runtime";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Alerts · ${(await params).slug}` };
}

export default async function AlertsPage({ params }: Props) {
  const { slug } = await params;
  const viewer = await pageActor();
  const [alerts, notifications] = await orNotFound((db) =>
    Promise.all([
      getAlerts({ db, prom: runtime().prom, query: { service: slug }, viewer }),
      listNotifications({ db, query: { service: slug, limit: 20 } }),
    ]),
  );
  return <AlertsPanel slug={slug} initialAlerts={alerts} initialNotifications={notifications} />;
}
