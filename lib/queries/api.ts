// The browser's side of the JSON API: one fetch wrapper that turns error bodies into ApiError.

export type ApiErrorBody = { code: string; message: string; fields?: Record<string, string>; [extra: string]: unknown };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      ...rest,
      headers: { ...(json !== undefined && { "content-type": "application/json" }), ...rest.headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch {
    throw new ApiError(0, {
      code: "NETWORK",
      message: "Could not reach the server. Check your connection and try again.",
    });
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(
      response.status,
      // The app's errors are { error: { code, message } }; better-auth's are { code, message }.
      body?.error ??
        (typeof body?.message === "string"
          ? { code: String(body.code ?? `HTTP_${response.status}`), message: body.message }
          : { code: "HTTP_" + response.status, message: `The server answered ${response.status}.` }),
    );
  }
  return body as T;
}

/** Puts a 422's per-field messages on a form's fields; true when there were any. */
export function showFieldErrors(error: unknown, setError: (field: string, message: string) => void): boolean {
  if (!(error instanceof ApiError) || !error.body.fields) return false;
  for (const [field, message] of Object.entries(error.body.fields)) setError(field, message);
  return true;
}
