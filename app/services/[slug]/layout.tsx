import type { ReactNode } from "react";
import { ServiceHeader } from "@/components/services/service-header";
import { formatTarget } from "@/lib/domain/budget";
import { orNotFound } from "@/lib/services/pages";
import { getServiceOrThrow } from "@/lib/services/services";

export default async function ServiceLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string }>;
}) {
  const { slug } = await params;
  const service = await orNotFound((db) => getServiceOrThrow({ db, slug }));
  return (
    <>
      <ServiceHeader slug={slug} name={service.name} target={formatTarget(service.budget)} />
      {children}
    </>
  );
}
