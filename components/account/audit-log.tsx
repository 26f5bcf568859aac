"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { CELL, DataTable, QueryStates, ROW } from "@/components/ui/data-table";
import { Button, Select } from "@/components/ui/primitives";
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
      <QueryStates
        query={{ ...entries, data: entries.data?.pages.flat() }}
        empty={{ title: "Nothing recorded", body: "No change matches these filters yet." }}
      >
        {(rows) => (
          <DataTable columns={["When", "Who", "What", "Service", "Summary"]} testId="audit-table">
            {rows.map((entry) => (
              <tr key={entry.id} className={ROW}>
                <td className={`${CELL} whitespace-nowrap`} title={entry.at}>
                  {new Date(entry.at).toLocaleString()}
                </td>
                <td className={CELL}>
                  {entry.actor.name}
                  {entry.actor.kind === "token" && <span className="ml-1 text-xs text-slate-500">(token)</span>}
                </td>
                <td className={`${CELL} font-mono text-xs`}>{entry.action}</td>
                <td className={CELL}>{entry.service ?? "—"}</td>
                <td className={CELL}>{entry.summary}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryStates>
      {entries.hasNextPage && (
        <Button type="button" onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
          {entries.isFetchingNextPage ? "Loading…" : "Older entries"}
        </Button>
      )}
    </div>
  );
}
