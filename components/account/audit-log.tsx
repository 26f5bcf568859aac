"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Button, Card, EmptyState, Select } from "@/components/ui/primitives";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";
import type { AuditEntryView } from "@/lib/services/audit";
import type { UserView } from "@/lib/services/auth/users";
import type { ServiceSummary } from "@/lib/services/services";

const PAGE = 50;

/** The audit trail, newest first; the filters live in the URL so a view can be shared. */
export function AuditLog() {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const service = search.get("service") ?? "";
  const actor = search.get("actor") ?? "";
  const services = useQuery({ queryKey: ["services"], queryFn: () => apiFetch<ServiceSummary[]>(urls.services()) });
  const users = useQuery({ queryKey: ["users"], queryFn: () => apiFetch<UserView[]>(urls.users()) });
  const entries = useInfiniteQuery({
    queryKey: ["audit", service, actor],
    initialPageParam: "",
    queryFn: ({ pageParam }) => apiFetch<AuditEntryView[]>(urls.audit({ service, actor, before: pageParam })),
    getNextPageParam: (last) => (last.length === PAGE ? last.at(-1)!.id : undefined),
  });
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    router.replace(`${pathname}${next.size ? `?${next}` : ""}`);
  };
  const rows = entries.data?.pages.flat() ?? [];

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-3 text-sm">
        <label className="flex items-center gap-2">
          Service
          <Select value={service} onChange={(e) => setFilter("service", e.target.value)}>
            <option value="">all</option>
            {services.data?.map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.name}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2">
          Who
          <Select value={actor} onChange={(e) => setFilter("actor", e.target.value)}>
            <option value="">everyone</option>
            {users.data?.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {entries.isPending ? (
        <Card className="h-32 animate-pulse">{null}</Card>
      ) : entries.isError ? (
        <p className="text-sm text-red-600">{entries.error.message}</p>
      ) : rows.length === 0 ? (
        <EmptyState title="Nothing recorded">No change matches these filters yet.</EmptyState>
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full text-sm" data-testid="audit-table">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="px-3 py-2">When</th>
                <th className="px-3 py-2">Who</th>
                <th className="px-3 py-2">What</th>
                <th className="px-3 py-2">Service</th>
                <th className="px-3 py-2">Summary</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id} className="border-t border-slate-100 align-top dark:border-slate-800">
                  <td className="whitespace-nowrap px-3 py-2" title={entry.at}>
                    {new Date(entry.at).toLocaleString()}
                  </td>
                  <td className="px-3 py-2">
                    {entry.actor.name}
                    {entry.actor.kind === "token" && <span className="ml-1 text-xs text-slate-500">(token)</span>}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{entry.action}</td>
                  <td className="px-3 py-2">{entry.service ?? "—"}</td>
                  <td className="px-3 py-2">{entry.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {entries.hasNextPage && (
        <Button type="button" onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
          {entries.isFetchingNextPage ? "Loading…" : "Older entries"}
        </Button>
      )}
    </div>
  );
}
