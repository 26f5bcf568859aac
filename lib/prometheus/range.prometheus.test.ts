import { describe, expect, inject, it } from "vitest";
import { createPrometheusClient } from "./client";
import { queryRange } from "./range";
import { nodeTransport, type Transport } from "./transport";

// A range question over hundreds of sources (the status board's) is longer than proxies in front
// of Prometheus let a URL be: it goes as a form, and Prometheus answers it the same.

describe("range queries", () => {
  it("go as a form when long, as a URL when short, with the same answer", async () => {
    const methods: string[] = [];
    const recording: Transport = (request) => {
      methods.push(request.method);
      return nodeTransport(request);
    };
    const client = createPrometheusClient(inject("prometheusUrl"), { transport: recording });
    const end = Math.floor(Date.now() / 1000);
    const range = { start: end - 60, end, step: 15 };
    const short = "vector(1)";
    // The same value, spelled with 600 more terms: 9 KB of PromQL.
    const long = `vector(1)${" + vector(0)".repeat(600)}`;
    const [a, b] = [await queryRange(client, short, range), await queryRange(client, long, range)];
    expect(methods).toEqual(["GET", "POST"]);
    expect(a).toEqual(b);
    expect(a.status === "success" && a.series[0]!.points.map(([, v]) => v)).toEqual([1, 1, 1, 1, 1]);
  });
});
