import Link from "next/link";
import { ServiceTabs } from "./service-tabs";

/** The service's name, target and views; rendered once by app/services/[slug]/layout.tsx. */
export function ServiceHeader({ slug, name, target }: { slug: string; name: string; target: string }) {
  return (
    <div className="mb-4 space-y-2">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link href="/" className="hover:underline">
          Services
        </Link>{" "}
        / {slug}
      </nav>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">{name}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="service-target">
          {target}
        </p>
      </div>
      <ServiceTabs slug={slug} />
    </div>
  );
}
