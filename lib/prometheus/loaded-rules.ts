import "server-only";
import type { PrometheusClient } from "./client";
import { recordName, RULE_PREFIX } from "./rules";

// Whether the Prometheus the app reads has this app's recording rules loaded, from /api/v1/rules.
// Asked at most every RULES_TTL_MS per client; a Prometheus without them (or without the rules
// API, like some proxies) is read raw.

const RULES_TTL_MS = 30_000;

type RulesData = { groups: { name: string; interval: number; rules: { type: string; name: string }[] }[] };

export type LoadedRules = {
  /** Group name → evaluation interval in seconds, for groups whose recording rules are loaded. */
  sloGroups: Map<string, number>;
  /** Names of every loaded group this app generated (SLO and budget groups). */
  groups: Set<string>;
  error: string | null;
};

type RuntimeInfo = { reloadConfigSuccess?: boolean };

const cache = new WeakMap<object, { value: Promise<LoadedRules>; expires: number }>();

export function sloGroupName(slug: string, slo: string): string {
  return `${RULE_PREFIX}/${slug}/slo/${slo}`;
}

export function loadedRules(client: PrometheusClient): Promise<LoadedRules> {
  const hit = cache.get(client);
  if (hit && hit.expires > Date.now()) return hit.value;
  const value = client.get<RulesData>("/api/v1/rules").then((result): LoadedRules => {
    const sloGroups = new Map<string, number>();
    const groups = new Set<string>();
    if (result.status !== "success") return { sloGroups, groups, error: result.error };
    for (const group of result.data.groups ?? []) {
      if (!group.name.startsWith(`${RULE_PREFIX}/`)) continue;
      groups.add(group.name);
      if (group.rules.some((rule) => rule.name === recordName.good("5m"))) sloGroups.set(group.name, group.interval);
    }
    return { sloGroups, groups, error: null };
  });
  cache.set(client, { value, expires: Date.now() + RULES_TTL_MS });
  return value;
}

/**
 * Prometheus's own word that its last configuration reload failed (then it keeps evaluating the
 * rules it loaded before, so what /api/v1/rules lists may be out of date); null when it cannot say.
 */
export async function lastReloadFailed(client: PrometheusClient): Promise<boolean | null> {
  const runtime = await client.get<RuntimeInfo>("/api/v1/status/runtimeinfo");
  const success = runtime.status === "success" ? runtime.data.reloadConfigSuccess : undefined;
  return typeof success === "boolean" ? !success : null;
}

/** Forget what was seen, after the app itself changed the rules. */
export function forgetLoadedRules(client: PrometheusClient): void {
  cache.delete(client);
}
