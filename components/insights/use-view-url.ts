"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";

/** The view's state lives in the URL, so a pasted link opens the same view: set or clear parameters. */
export function useViewUrl() {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  return (changes: Record<string, string | string[] | undefined>) => {
    const next = new URLSearchParams(search.toString());
    for (const [key, value] of Object.entries(changes)) {
      next.delete(key);
      if (Array.isArray(value)) for (const v of value) next.append(key, v);
      else if (value !== undefined && value !== "") next.set(key, value);
    }
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };
}
