// npm run demo:incident -- rag|queue|none   flips the demo traffic's incident switch.
import { demoTrafficUrl } from "./demo-urls";

const mode = process.argv[2] ?? "";
const url = demoTrafficUrl();
const response = await fetch(`${url}/incident?mode=${encodeURIComponent(mode)}`, { method: "POST" }).catch(() => null);
if (!response) {
  console.error(`The demo traffic generator is not running at ${url} (start it with npm run demo).`);
  process.exit(1);
}
console.log(response.ok ? `Incident: ${(await response.json()).incident}` : await response.text());
process.exit(response.ok ? 0 : 1);
