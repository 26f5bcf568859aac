import "server-only";
import http from "node:http";
import https from "node:https";

// How the Prometheus client talks HTTP: node:http(s) with keep-alive agents. Node's fetch adds
// about a millisecond of WHATWG-stream machinery to every query, as much as the app's own work
// on a waterfall; a query is a small form POST and a JSON answer, which this does directly.

export type HttpRequest = {
  url: string;
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
};
export type HttpResponse = { status: number; body: string };
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

export class TransportTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export const nodeTransport: Transport = ({ url, method, body, headers = {}, timeoutMs }) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const protocol = target.protocol === "https:" ? "https:" : "http:";
    const send = protocol === "https:" ? https.request : http.request;
    const request = send(
      target,
      {
        method,
        agent: agents[protocol],
        headers: { ...headers, ...(body !== undefined && { "content-length": String(Buffer.byteLength(body)) }) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => request.destroy(new TransportTimeoutError(timeoutMs)), timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
