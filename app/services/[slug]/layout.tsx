import type { ReactNode } from "react";
import { ServiceHeader } from "@/components/services/service-header";
import { orNotFound } from "@/lib/services/pages";
import { getServiceSummary } from "@/lib/services/services";

export default async function ServiceLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string }>;
}) {
  const { slug } = await params;
  const service = await orNotFound((db) => getServiceSummary({ db, slug }));
  return (
    <>
      <ServiceHeader slug={slug} name={service.name} target={service.target} />
      {children}
    </>
  );
}
