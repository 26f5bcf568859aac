// The whole demo: traffic generator → real Prometheus → the app, all on this machine.
//   tsx scripts/demo-stack.ts [--port 3000] [--data-dir .data] [--traffic-port 9464] [--traffic-host 127.0.0.1]
//                             [--prometheus-port 9090] [--scrape-interval 2s] [--control-port N]
//                             [--alertmanager-port N] [--dev]
// Everything the demo keeps lives in one folder: --data-dir X holds X/pglite (the database),
// X/auth-secret, X/prometheus, X/alertmanager and X/demo.json (its helpers' addresses). Without
// --data-dir that folder is .data, or the parent of LB_DATA_DIR (the database's folder, as for
// npm start).
// The traffic generator listens on 127.0.0.1; --traffic-host 0.0.0.0 (or LB_DEMO_TRAFFIC_HOST)
// lets a Prometheus on another machine scrape it (anyone who reaches it can also flip its incidents).
// The helper ports default to 9464 and 9090; when one is taken (a Prometheus of your own is often
// on 9090) the demo takes a free one and says which. A port given on the command line must be free.
// The app listens on 127.0.0.1 only (the demo publishes its admin's password); LB_HOST=0.0.0.0
// opens it to the network.
// With Prometheus and Alertmanager installed it runs both: the app writes its rules where this
// Prometheus reads them (LB_RULES_FILE) and Alertmanager posts notifications to the app.
// --control-port opens POST /prometheus/stop, /prometheus/start, /prometheus/freeze (SIGSTOP: it
// accepts connections and never answers) and /prometheus/thaw; the end-to-end tests use them to
// take Prometheus away, or hang it, and bring it back.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { displayUrl } from "../lib/domain/display-url";
import { hasAlertmanager, startAlertmanager, type AlertmanagerServer } from "./stack/alertmanager";
import { hasPrometheus, startPrometheus, type PrometheusServer } from "./stack/prometheus";
import { portOrFree } from "./stack/net";
import { startTrafficGenerator } from "./traffic/generator";

/** Where the demo's helpers listen unless those ports are taken. */
const DEFAULT_PORTS = { traffic: 9464, prometheus: 9090 } as const;

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "3000" },
    "data-dir": { type: "string" },
    "traffic-port": { type: "string" },
    "traffic-host": { type: "string", default: process.env.LB_DEMO_TRAFFIC_HOST || undefined },
    "prometheus-port": { type: "string" },
    "scrape-interval": { type: "string", default: "2s" },
    "control-port": { type: "string" },
    "alertmanager-port": { type: "string" },
    dev: { type: "boolean", default: false },
  },
});

// Alerts in the demo: rules the app writes on every change, Alertmanager posting to the app.
const appUrl = `http://127.0.0.1:${values.port}`;
/** The demo's admin unless LB_DEMO_ADMIN_EMAIL / LB_DEMO_ADMIN_PASSWORD say otherwise (the README names these; lib/services/auth/demo-password.ts has the same). */
const DEMO_ADMIN = { email: "admin@example.com", password: "latency-budgets-demo" };

const alertToken = process.env.LB_ALERTMANAGER_TOKEN || randomBytes(24).toString("base64url");
// Its Prometheus scrapes the app's own /metrics: the app's latency, budgeted like any service's.
const metricsToken = process.env.LB_METRICS_TOKEN || randomBytes(24).toString("base64url");
let alertmanager: AlertmanagerServer | null = null;
let rulesFile: string | null = null;

// Everything the demo writes lives in one folder (.data on a fresh clone): make it first, whichever
// helpers end up starting (with PROMETHEUS_URL set, none of them creates it).
const databaseDir = values["data-dir"]
  ? resolve(values["data-dir"], "pglite")
  : resolve(process.env.LB_DATA_DIR || ".data/pglite");
const dataRoot = values["data-dir"] ? resolve(values["data-dir"]) : resolve(databaseDir, "..");
mkdirSync(dataRoot, { recursive: true });

/** A helper's port: the one asked for (it must be free), or the default, or a free one instead. */
async function helperPort(asked: string | undefined, fallback: number, what: string): Promise<number> {
  if (asked) return Number(asked);
  const { port, wasTaken } = await portOrFree(fallback);
  if (wasTaken) console.log(`Port ${fallback} is taken (another ${what}?): the demo's ${what} uses ${port} instead.`);
  return port;
}

const traffic = await startTrafficGenerator({
  port: await helperPort(values["traffic-port"], DEFAULT_PORTS.traffic, "traffic generator"),
  host: values["traffic-host"],
});
/** What a Prometheus scrapes: on another machine, this one's address when the generator listens everywhere. */
const trafficTarget =
  values["traffic-host"] === "0.0.0.0" || values["traffic-host"] === "::"
    ? `<this machine's address>:${traffic.port}`
    : traffic.url.replace("http://", "");
console.log(`Demo traffic: ${traffic.url}/metrics (incidents: npm run demo:incident -- rag|queue|none)`);

let prometheus: PrometheusServer | null = null;
if (process.env.PROMETHEUS_URL) {
  console.log(
    `Using Prometheus at ${displayUrl(process.env.PROMETHEUS_URL)}; add ${trafficTarget} to its scrape targets` +
      (values["traffic-host"]
        ? "."
        : " (the traffic generator listens on 127.0.0.1 only: --traffic-host 0.0.0.0 for a Prometheus on another machine)."),
  );
} else if (hasPrometheus()) {
  const dataDir = resolve(dataRoot, "prometheus");
  mkdirSync(dataDir, { recursive: true });
  rulesFile = resolve(dataDir, "rules", "latency-budgets.rules.yaml");
  if (hasAlertmanager()) {
    const amDir = resolve(dataRoot, "alertmanager");
    mkdirSync(amDir, { recursive: true });
    alertmanager = await startAlertmanager({
      webhookUrl: `${appUrl}/api/alertmanager/webhook`,
      token: alertToken,
      port: values["alertmanager-port"] ? Number(values["alertmanager-port"]) : undefined,
      dataDir: amDir,
    });
    console.log(`Alertmanager: ${alertmanager.url} (webhook to ${appUrl}/api/alertmanager/webhook)`);
  } else {
    console.warn(
      "Alertmanager is not installed, so alerts will not be delivered: apt-get install prometheus-alertmanager",
    );
  }
  prometheus = await startPrometheus({
    targets: [traffic.url.replace("http://", "")],
    jobs: [{ name: "latency-budgets-app", targets: [`127.0.0.1:${values.port}`], bearerToken: metricsToken }],
    scrapeInterval: values["scrape-interval"],
    evaluationInterval: "5s",
    port: await helperPort(values["prometheus-port"], DEFAULT_PORTS.prometheus, "Prometheus"),
    dataDir,
    ruleFiles: [rulesFile],
    alertmanagers: alertmanager ? [alertmanager.hostPort] : undefined,
    // The demo traffic attaches trace IDs to its observations: keep them, so a slow bar leads to its requests.
    flags: ["--enable-feature=exemplar-storage"],
  });
  console.log(`Prometheus: ${prometheus.url} (rules from ${rulesFile})`);
} else {
  console.warn(
    "Prometheus is not installed, so the live views will be empty. Install it with: apt-get install prometheus",
  );
}

if (values["control-port"] && prometheus) {
  const control = prometheus;
  createServer(async (req, res) => {
    if (req.method === "POST" && req.url === "/prometheus/stop") await control.stop();
    else if (req.method === "POST" && req.url === "/prometheus/start") await control.start();
    else if (req.method === "POST" && req.url === "/prometheus/freeze") control.freeze();
    else if (req.method === "POST" && req.url === "/prometheus/thaw") control.thaw();
    else return void res.writeHead(404).end();
    res.end("ok\n");
  }).listen(Number(values["control-port"]), "127.0.0.1");
}

// Where the helpers ended up, for npm run demo:incident and npm run screenshots.
writeFileSync(
  resolve(dataRoot, "demo.json"),
  JSON.stringify(
    { app: appUrl, traffic: traffic.url, prometheus: prometheus?.url ?? (process.env.PROMETHEUS_URL || null) },
    null,
    2,
  ),
);

const app = spawn(
  process.execPath,
  [
    resolve("node_modules/tsx/dist/cli.mjs"),
    // lib/services is server-only: the launcher seeds through it outside Next.
    "--conditions=react-server",
    "scripts/serve.ts",
    // The demo's three services, its optimization catalog and experiment, on an empty database.
    "--seed",
    // Its admin's password is published: with LB_HOST beyond this machine it warns, `npm start` refuses.
    "--demo",
    "--port",
    values.port!,
    "--data-dir",
    databaseDir,
    "--host",
    process.env.LB_HOST || "127.0.0.1",
    ...(values.dev ? ["--dev"] : []),
  ],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      ...(prometheus && { PROMETHEUS_URL: prometheus.url }),
      // Only for a Prometheus the demo started itself: the app never writes files for someone else's.
      ...(rulesFile && { LB_RULES_FILE: rulesFile }),
      LB_ALERTMANAGER_TOKEN: alertToken,
      LB_ALERT_FOR: process.env.LB_ALERT_FOR || "1m",
      LB_METRICS_TOKEN: metricsToken,
      // No LB_PUBLIC_URL unless you set one: the demo then works at whatever address it is opened
      // (localhost, 127.0.0.1, this machine's IP with LB_HOST=0.0.0.0).
      LB_TRAFFIC_URL: traffic.url,
      // Anyone who opens the demo sees the dashboards; changes need the demo admin (or a user they add).
      LB_ANONYMOUS_VIEW: process.env.LB_ANONYMOUS_VIEW || "true",
      LB_DEMO_ADMIN_EMAIL: process.env.LB_DEMO_ADMIN_EMAIL || DEMO_ADMIN.email,
      LB_DEMO_ADMIN_PASSWORD: process.env.LB_DEMO_ADMIN_PASSWORD || DEMO_ADMIN.password,
    },
  },
);

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (app.exitCode === null) app.kill("SIGTERM");
  await prometheus?.stop();
  await alertmanager?.close();
  await traffic.stop();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
app.on("exit", (code) => void stop(code ?? 0));
