import { z } from "zod";
import { nameSchema, textSchema } from "./text";

export const optimizationInputSchema = z.object({
  name: nameSchema("Name", 120),
  component: nameSchema("Component", 161),
  savingMs: z.number({ error: "Enter the latency saving in ms" }).finite().min(-60_000).max(60_000),
  costPct: z
    .number({ error: "Enter the cost change in %" })
    .finite()
    .min(-100, "Cost cannot fall by more than 100 %")
    .max(10_000),
  note: textSchema("Note", 500).default(""),
  source: textSchema("Source", 120).default("manual"),
});

export type OptimizationInput = z.input<typeof optimizationInputSchema>;
