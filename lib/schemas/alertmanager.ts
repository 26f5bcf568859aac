import { z } from "zod";
import { storable } from "./text";

// Alertmanager's webhook payload, version 4
// (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config). Label and annotation
// names are checked on the sender's own keys before zod rebuilds the objects, so "__proto__"
// cannot slip through as a dropped key.

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const MAX_ENTRIES = 64;

const stringMap = (what: string, maxValue: number) => {
  const record = z.record(
    z.string(),
    storable(
      z.string({ error: `${what} values are text` }).max(maxValue, `${what} values are at most ${maxValue} characters`),
      `${what} value`,
    ),
    { error: `${what} are an object of name to text` },
  );
  return z.preprocess<unknown, typeof record, Record<string, string>>((value, ctx) => {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const names = Object.keys(value);
      if (names.length > MAX_ENTRIES)
        ctx.addIssue({ code: "custom", message: `At most ${MAX_ENTRIES} ${what.toLowerCase()}`, input: value });
      for (const name of names)
        if (!NAME.test(name) || name.startsWith("__"))
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `${JSON.stringify(name)} is not a label name`,
            input: value,
          });
    }
    return value;
  }, record);
};

const timestamp = z.iso.datetime({ offset: true, error: "Times are RFC 3339 timestamps" });

const alertSchema = z.object({
  status: z.enum(["firing", "resolved"], { error: "An alert's status is firing or resolved" }),
  labels: stringMap("Labels", 1000),
  annotations: stringMap("Annotations", 4000).default({}),
  startsAt: timestamp,
  endsAt: timestamp.optional(),
  generatorURL: z.string().max(4000).optional(),
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{0,64}$/, "fingerprint is hexadecimal")
    .default(""),
});

export const alertmanagerWebhookSchema = z.object({
  version: z.literal("4", { error: 'Only webhook payload version "4" is understood' }),
  status: z.enum(["firing", "resolved"], { error: "status is firing or resolved" }),
  receiver: storable(z.string().max(200, "receiver is at most 200 characters"), "receiver").default(""),
  alerts: z.array(alertSchema).min(1, "The notification has no alerts").max(500, "At most 500 alerts per notification"),
});

export type AlertmanagerWebhook = z.output<typeof alertmanagerWebhookSchema>;
