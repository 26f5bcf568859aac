import "server-only";
import { crossSiteRefusal } from "@/lib/api/security";
import { AppError } from "@/lib/errors";
import { ANONYMOUS, assertIdentified, authorize, type Actor } from "@/lib/services/actor";
import { originConfig } from "@/lib/services/auth/origins";
import { actorFromHeaders } from "@/lib/services/auth/request";

// Route handlers stay thin: parse, call one service function, return JSON. Every error goes
// through here, so callers always get { error: { code, message, fields? } } and never a stack.

const MAX_JSON_BYTES = 256 * 1024;

type Params = Record<string, string | string[] | undefined>;
type Handler<P extends Params> = (request: Request, params: P, actor: Actor) => Promise<Response>;

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, { ...init, headers: { "cache-control": "no-store", ...init.headers } });
}

/** JSON that is already serialised (a cached answer): sent as is. */
export function jsonText(body: string, init: ResponseInit = {}): Response {
  return new Response(body, {
    ...init,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...init.headers },
  });
}

/** A YAML document (rule files, OpenSLO), shown inline; `?download=1` asks the browser to save it. */
export function yamlText(body: string, request: Request, filename: string): Response {
  const download = new URL(request.url).searchParams.get("download") === "1";
  return new Response(body, {
    headers: {
      "content-type": "application/yaml; charset=utf-8",
      "cache-control": "no-store",
      ...(download && { "content-disposition": `attachment; filename="${filename}"` }),
    },
  });
}

/** The query without the presentation-only `download` flag. */
export function yamlQueryOf(request: Request): Record<string, string> {
  const { download: _download, ...query } = queryOf(request);
  return query;
}

export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    const body = {
      error: {
        code: error.code,
        message: error.message,
        ...(error.fields && { fields: error.fields }),
        ...error.details,
      },
    };
    return json(body, { status: error.status });
  }
  console.error("Unhandled error in API route", error);
  return json(
    {
      error: {
        code: "INTERNAL",
        message: "Something went wrong on our side. Try again; if it keeps failing, check the server log.",
      },
    },
    { status: 500 },
  );
}

/**
 * Wraps a route handler: resolves who is calling (API token, Alertmanager's token, session cookie
 * or nobody), refuses reads to whoever may not view, and turns every error into JSON. Mutations
 * are checked by the service functions the handler calls, with the actor it is given.
 * `public` routes (health) skip both. `isCalculation` routes take a body but store nothing (the
 * capacity calculators): whoever may view may call them, as with a GET.
 */
/** A change another site made a browser send is refused before anything else (proxy.ts leaves /api to this). */
export function refuseCrossSite(request: Request): void {
  const refusal = crossSiteRefusal(request, originConfig());
  if (refusal) throw new AppError("FORBIDDEN", refusal);
}

export function route<P extends Params>(handler: Handler<P>, { isPublic = false, isCalculation = false } = {}) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      refuseCrossSite(request);
      const actor = isPublic ? ANONYMOUS : await actorFromHeaders(request.headers);
      if (!isPublic) {
        if (request.method === "GET" || request.method === "HEAD" || isCalculation) authorize(actor, "read");
        // Nobody may change anything: refuse before a body is read.
        else assertIdentified(actor);
      }
      return await handler(request, await context.params, actor);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

type BodyOptions = { optional: boolean; accept: RegExp; wrongType: string; maxBytes: number };

/**
 * Reads a text body with a size cap; a wrong content type, an oversized or non-UTF-8 body is the
 * caller's error. With `optional`, no body (or an empty one) reads as null.
 */
async function readBodyText(request: Request, options: BodyOptions): Promise<string | null> {
  const isAccepted = options.accept.test(request.headers.get("content-type") ?? "");
  const wrongType = () => new AppError("UNSUPPORTED_MEDIA_TYPE", options.wrongType);
  // Without an optional body, a wrong type is refused before anything is read.
  if (!isAccepted && !options.optional) throw wrongType();
  const tooLarge = () =>
    new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${Math.round(options.maxBytes / 1024)} KiB.`);
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > options.maxBytes) throw tooLarge();
  const reader = request.body?.getReader();
  if (!reader) {
    if (options.optional) return null;
    throw new AppError("BAD_REQUEST", "The request has no body.");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > options.maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (options.optional && size === 0) return null;
  if (!isAccepted) throw wrongType();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError("BAD_REQUEST", "The body is not valid UTF-8.");
  }
  if (!text.trim()) {
    if (options.optional) return null;
    throw new AppError("BAD_REQUEST", "The request body is empty.");
  }
  return text;
}

/**
 * Reads a JSON body with a size cap; a wrong content type, an oversized, non-UTF-8 or unparsable
 * body is the caller's error. With `optional`, no body (or an empty one) reads as `{}`.
 */
export async function readJson(request: Request, { optional = false } = {}): Promise<unknown> {
  const text = await readBodyText(request, {
    optional,
    accept: /^application\/(.+\+)?json\b/i,
    wrongType: "Send the body as JSON with Content-Type: application/json.",
    maxBytes: MAX_JSON_BYTES,
  });
  if (text === null) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "The body is not valid JSON.");
  }
}

export const MAX_YAML_BYTES = 1024 * 1024;

/** A YAML body (application/yaml, or text/yaml as many tools send it), as text. */
export async function readYaml(request: Request): Promise<string> {
  return (await readBodyText(request, {
    optional: false,
    accept: /^(application|text)\/(x-)?yaml\b/i,
    wrongType: "Send the documents as YAML with Content-Type: application/yaml.",
    maxBytes: MAX_YAML_BYTES,
  }))!;
}

/** readJson for endpoints whose body is optional. */
export const readOptionalJson = (request: Request) => readJson(request, { optional: true });

/**
 * The query string as zod input. An empty parameter (`?actor=&service=`, what an HTML form sends
 * for a field left blank) means "no filter": it is left out, as if it were not there.
 */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
}

/** Every value of a repeated parameter (`?change=a&change=b`), empty ones left out like queryOf's. */
export function queryValues(request: Request, name: string): string[] {
  return new URL(request.url).searchParams.getAll(name).filter((value) => value !== "");
}

/** Path segments arrive URL-decoded; a slug that cannot be one is simply not found. */
export function slugParam(value: string | string[] | undefined): string {
  if (typeof value !== "string" || !/^[a-z0-9-]{1,64}$/.test(value))
    throw new AppError("NOT_FOUND", "No such service.");
  return value;
}
