import { parser } from "@prometheus-io/lezer-promql";
import { checkTemplate } from "./template";

// What a generated rule file must satisfy before anyone gets it (a download) or it reaches a
// Prometheus (the demo's rule file): every expression is valid PromQL by Prometheus's own grammar,
// and every label and annotation is text, string constants or the generator's own actions. A
// rule file that fails this is a bug of ours, never something to hand to Prometheus: one broken
// file makes /-/reload fail, and no rule change for any service is loaded after it.

type Rule = {
  record?: string;
  alert?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type Group = { name: string; rules: readonly Rule[] };

/** Every problem in the groups, each naming the group, the rule and the field. Empty when sound. */
export function checkRuleGroups(groups: readonly Group[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const group of groups) {
    if (names.has(group.name)) problems.push(`group ${group.name}: the name is used twice`);
    names.add(group.name);
    group.rules.forEach((rule, index) => {
      const where = `group ${group.name}, rule ${index + 1} (${rule.alert ?? rule.record})`;
      const error = promqlError(rule.expr);
      if (error !== null) problems.push(`${where}: expr is not valid PromQL (${error})`);
      // Recording rules' labels are stored as they are; only alerting rules are templates.
      if (rule.alert === undefined) return;
      for (const [kind, values] of [
        ["label", rule.labels ?? {}],
        ["annotation", rule.annotations ?? {}],
      ] as const)
        for (const [name, value] of Object.entries(values)) {
          const problem = checkTemplate(value);
          if (problem) problems.push(`${where}: ${kind} ${name} holds ${problem.reason}`);
        }
    });
  }
  return problems;
}

function promqlError(expr: string): string | null {
  let error: number | null = null;
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError && error === null) error = node.from;
      return error === null;
    },
  });
  return error === null ? null : `error at character ${(error as number) + 1}`;
}
