import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

// Where a running demo's app and traffic generator are: LB_APP_URL / LB_TRAFFIC_URL, else what the
// demo wrote into its folder at start (its helper ports move when the defaults are taken), else
// the default ports. The folder is the demo's --data-dir when given, else .data (the parent of
// LB_DATA_DIR, the database's folder, when that is set), as scripts/demo-stack.ts chooses it.

type DemoFile = { app?: string; traffic?: string; prometheus?: string | null };

/** The demo.json a demo started with `--data-dir dataDir` (or none) writes. */
export function demoFile(dataDir?: string): string {
  return dataDir
    ? resolve(dataDir, "demo.json")
    : resolve(process.env.LB_DATA_DIR || ".data/pglite", "..", "demo.json");
}

function written(dataDir?: string): DemoFile {
  const file = demoFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as DemoFile) : {};
}

export function demoTrafficUrl(dataDir?: string): string {
  return process.env.LB_TRAFFIC_URL || written(dataDir).traffic || "http://127.0.0.1:9464";
}

export function demoAppUrl(dataDir?: string): string {
  return process.env.LB_APP_URL || written(dataDir).app || "http://127.0.0.1:3000";
}
