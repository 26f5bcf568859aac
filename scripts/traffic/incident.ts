// npm run demo:incident -- rag|queue|none [--data-dir X]   flips the demo traffic's incident switch.
// --data-dir is the demo's own (npm run demo -- --data-dir X): its demo.json says where the traffic is.
import { parseArgs } from "node:util";
import { demoFile, demoTrafficUrl } from "./demo-urls";

const { values, positionals } = parseArgs({
  options: { "data-dir": { type: "string" } },
  allowPositionals: true,
});
const mode = positionals[0] ?? "";
const url = demoTrafficUrl(values["data-dir"]);
const response = await fetch(`${url}/incident?mode=${encodeURIComponent(mode)}`, { method: "POST" }).catch(() => null);
if (!response) {
  console.error(
    `The demo traffic generator is not running at ${url} (start it with npm run demo; read from ${demoFile(values["data-dir"])} when it exists).`,
  );
  process.exit(1);
}
console.log(response.ok ? `Incident: ${(await response.json()).incident}` : await response.text());
process.exit(response.ok ? 0 : 1);
