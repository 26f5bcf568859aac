// npm run demo:traffic: the demo traffic generator alone, on LB_TRAFFIC_PORT (default 9464).
import { startTrafficGenerator } from "./generator";

const generator = await startTrafficGenerator({ port: Number(process.env.LB_TRAFFIC_PORT ?? 9464) });
console.log(
  `Demo traffic for chat-api at ${generator.url}/metrics; flip incidents with npm run demo:incident -- rag|queue|none`,
);
