import { testAdminToken } from "./credentials";

// Calls a Next route handler the way Next does: a real Request, params as a promise.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route declares its own params
export type Handler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

export type Call = {
  path?: string;
  method?: string;
  params?: Record<string, string>;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Credentials: a bearer token, or null for none. An admin's token with every scope by default. */
  as?: string | null;
};

export async function call(handler: Handler, options: Call) {
  const token = options.as === undefined ? await testAdminToken() : options.as;
  const headers = {
    ...(options.json !== undefined && { "content-type": "application/json" }),
    ...(token && { authorization: `Bearer ${token}` }),
    ...options.headers,
  };
  const request = new Request(`http://localhost${options.path ?? "/api"}`, {
    method: options.method ?? "GET",
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the documented shapes
  return { status: response.status, body: body as any };
}
