// @ts-check
// Where the app is not bundled (tsx, the tests), ./worker.ts is TypeScript: this entry registers
// tsx's loader in the worker thread (a worker does not inherit the parent's module hooks) and
// loads it. Next's build bundles ./worker.ts itself and never uses this file.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
