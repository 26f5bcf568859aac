import Link from "next/link";
import { cx } from "@/components/ui/primitives";

const TABS = [
  { key: "waterfall", label: "Waterfall" },
  { key: "slos", label: "SLOs" },
  { key: "budget", label: "Budget" },
  { key: "history", label: "History" },
] as const;

export function ServiceHeader({
  slug,
  name,
  target,
  active,
}: {
  slug: string;
  name: string;
  target: string;
  active: (typeof TABS)[number]["key"];
}) {
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
        <p className="text-sm text-slate-600 dark:text-slate-400">{target}</p>
      </div>
      <nav aria-label="Service views" className="flex gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((tab) => (
          <Link
            key={tab.key}
            href={`/services/${slug}/${tab.key}`}
            aria-current={tab.key === active ? "page" : undefined}
            className={cx(
              "-mb-px border-b-2 px-3 py-1.5 text-sm",
              tab.key === active
                ? "border-sky-600 font-medium text-sky-700 dark:text-sky-400"
                : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400",
            )}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
