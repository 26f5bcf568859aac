"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/primitives";

const TABS = [
  { key: "waterfall", label: "Waterfall" },
  { key: "slos", label: "SLOs" },
  { key: "alerts", label: "Alerts" },
  { key: "kpis", label: "KPIs" },
  { key: "capacity", label: "Capacity" },
  { key: "whatif", label: "What-if" },
  { key: "report", label: "Report" },
  { key: "budget", label: "Budget" },
  { key: "history", label: "History" },
] as const;

export function ServiceTabs({ slug }: { slug: string }) {
  const active = usePathname().split("/")[3];
  return (
    <nav
      aria-label="Service views"
      className="flex flex-wrap gap-1 border-b print:hidden border-slate-200 dark:border-slate-800"
    >
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
  );
}
