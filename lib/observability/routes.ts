// Request paths as route patterns, for metric labels: "/services/chat-api/waterfall" →
// "/services/[slug]/waterfall". One label per route, never one per service or id, so the number
// of series stays fixed however many services there are.

export type RouteMatcher = (path: string) => string;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function segmentPattern(segment: string): { regex: string; isStatic: boolean } {
  if (/^\[\[\.\.\.[^\]]+\]\]$/.test(segment)) return { regex: "(?:/.*)?", isStatic: false };
  if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return { regex: "/.+", isStatic: false };
  if (/^\[[^\]]+\]$/.test(segment)) return { regex: "/[^/]+", isStatic: false };
  return { regex: `/${escape(segment)}`, isStatic: true };
}

/** A matcher for Next's route patterns (the values of .next/app-path-routes-manifest.json). */
export function routeMatcher(patterns: readonly string[]): RouteMatcher {
  const compiled = [...new Set(patterns)]
    .filter((pattern) => pattern.startsWith("/") && !pattern.startsWith("/_"))
    .map((pattern) => {
      const segments = pattern
        .split("/")
        .filter(Boolean)
        .filter((segment) => !/^\(.*\)$/.test(segment))
        .map(segmentPattern);
      return {
        pattern,
        regex: new RegExp(`^${segments.map((s) => s.regex).join("") || "/"}/?$`),
        staticCount: segments.filter((s) => s.isStatic).length,
        dynamicCount: segments.filter((s) => !s.isStatic).length,
      };
    })
    // Static segments win over dynamic ones, as in Next's own routing.
    .sort((a, b) => b.staticCount - a.staticCount || a.dynamicCount - b.dynamicCount);
  return (path) => {
    const pathname = path.split("?")[0]!;
    if (pathname.startsWith("/_next/")) return "/_next/*";
    return compiled.find((route) => route.regex.test(pathname))?.pattern ?? "(unmatched)";
  };
}
