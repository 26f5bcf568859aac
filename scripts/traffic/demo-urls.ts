import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

// Where a running demo's traffic generator is: LB_TRAFFIC_URL, else what the demo wrote into its
// data folder at start (its helper ports move when the defaults are taken), else the default port.

export function demoTrafficUrl(): string {
  if (process.env.LB_TRAFFIC_URL) return process.env.LB_TRAFFIC_URL;
  const file = resolve(process.env.LB_DATA_DIR ?? ".data/pglite", "..", "demo.json");
  if (existsSync(file)) {
    const written = JSON.parse(readFileSync(file, "utf8")) as { traffic?: string };
    if (written.traffic) return written.traffic;
  }
  return "http://127.0.0.1:9464";
}
