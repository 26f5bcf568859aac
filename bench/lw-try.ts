import { runLongWindowBench } from "./long-window";
const rows = await runLongWindowBench();
for (const r of rows) console.log(`${r.met ? "✓" : "✗"} ${r.name}: ${r.value} (target ${r.target})`);
process.exit(0);
