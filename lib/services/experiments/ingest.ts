import "server-only";
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { INDICATORS, newAccumulator, type VariantAccumulator } from "@/lib/domain/experiments";
import { addToMoments } from "@/lib/domain/stats/mean";
import { addToRatio } from "@/lib/domain/stats/ratio";
import { AppError } from "@/lib/errors";

// Streams an upload of per-request samples (CSV with a header row, or NDJSON) into bounded
// per-variant accumulators. Nothing is ever held whole: rows are validated one by one (by hand,
// not with zod: millions of rows), and a bad row is reported with its line number.

export type RowError = { line: number; message: string };
export type IngestResult = {
  variants: Map<string, VariantAccumulator>;
  accepted: number;
  rejected: number;
  errors: RowError[];
};

export const MAX_REPORTED_ERRORS = 50;
const MAX_FIELD_CHARS = 10_000;

const COLUMN: Record<string, keyof Row> = {
  variant: "variant",
  ttft_ms: "ttftMs",
  ttftms: "ttftMs",
  itl_ms: "itlMs",
  itlms: "itlMs",
  e2e_ms: "e2eMs",
  e2ems: "e2eMs",
  tokens: "tokens",
  prompt_tokens: "promptTokens",
  prompttokens: "promptTokens",
  completion_tokens: "completionTokens",
  completiontokens: "completionTokens",
  cost_usd: "costUsd",
  costusd: "costUsd",
  cost: "costUsd",
  quality: "quality",
};

type Row = {
  variant: unknown;
  ttftMs: unknown;
  itlMs: unknown;
  e2eMs: unknown;
  tokens: unknown;
  promptTokens: unknown;
  completionTokens: unknown;
  costUsd: unknown;
  quality: unknown;
};

function numberField(value: unknown, name: string, { min = 0, max = 3.6e9 } = {}): number | null {
  if (value === undefined || value === null || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) throw new Error(`${name} is not a number: ${JSON.stringify(String(value).slice(0, 40))}`);
  if (n < min || n > max) throw new Error(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Adds one row to its variant, or throws a message saying what is wrong with it. */
function addRow(row: Row, variants: Map<string, VariantAccumulator>): void {
  const variant = typeof row.variant === "string" ? row.variant.trim() : row.variant;
  if (typeof variant !== "string" || variant === "") throw new Error("variant is missing");
  const acc = variants.get(variant);
  if (!acc) throw new Error(`variant “${variant.slice(0, 60)}” is not one of ${[...variants.keys()].join(", ")}`);
  const latency = INDICATORS.map((i) => numberField(row[i], i.replace("Ms", "_ms")));
  if (latency.every((v) => v === null)) throw new Error("the row has no latency (ttft_ms, itl_ms or e2e_ms)");
  const tokens =
    numberField(row.tokens, "tokens") ??
    sumOrNull(numberField(row.promptTokens, "prompt_tokens"), numberField(row.completionTokens, "completion_tokens"));
  const cost = numberField(row.costUsd, "cost_usd", { max: 1e6 });
  const quality = numberField(row.quality, "quality", { min: -1e9, max: 1e9 });
  acc.requests++;
  latency.forEach((v, i) => v !== null && acc.latency[INDICATORS[i]!].add(v));
  if (tokens !== null && cost !== null) addToRatio(acc.cost, cost, tokens);
  if (quality !== null) addToMoments(acc.quality, quality);
}

function sumOrNull(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

function normaliseRecord(record: Record<string, unknown>): Row {
  const row: Partial<Row> = {};
  for (const [key, value] of Object.entries(record)) {
    const column = COLUMN[key.trim().toLowerCase()];
    if (column) row[column] = value;
  }
  return row as Row;
}

function decodedText(body: ReadableStream<Uint8Array>): Readable {
  const decoder = new TextDecoderStream("utf-8", { fatal: true }) as unknown as ReadableWritablePair<
    string,
    Uint8Array
  >;
  return Readable.fromWeb(body.pipeThrough(decoder) as never);
}

async function* ndjsonRecords(
  text: Readable,
): AsyncGenerator<{ line: number; record?: Record<string, unknown>; error?: string }> {
  let buffered = "";
  let line = 0;
  for await (const chunk of text) {
    buffered += chunk as string;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const text = buffered.slice(0, newline).replace(/\r$/, "");
      buffered = buffered.slice(newline + 1);
      line++;
      if (text.trim()) yield parseJsonLine(text, line);
    }
    if (buffered.length > MAX_FIELD_CHARS * 10) {
      line++;
      yield { line, error: `line is longer than ${MAX_FIELD_CHARS * 10} characters` };
      buffered = "";
    }
  }
  if (buffered.trim()) yield parseJsonLine(buffered, line + 1);
}

function parseJsonLine(text: string, line: number): { line: number; record?: Record<string, unknown>; error?: string } {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? { line, record: value }
      : { line, error: "the line is not a JSON object" };
  } catch {
    return { line, error: "the line is not valid JSON" };
  }
}

async function* csvRecords(
  text: Readable,
): AsyncGenerator<{ line: number; record?: Record<string, unknown>; error?: string }> {
  const skipped: { line: number; error: string }[] = [];
  const parser = parse({
    columns: true,
    bom: true,
    trim: true,
    skip_empty_lines: true,
    max_record_size: MAX_FIELD_CHARS,
    info: true,
    skip_records_with_error: true,
  });
  // pipe() does not forward errors: a decoding error (not UTF-8) must end the parse.
  text.on("error", (error) => parser.destroy(error));
  text.pipe(parser);
  parser.on("skip", (error: Error & { lines?: number }) =>
    skipped.push({
      line: error.lines ?? 0,
      error: error.message.replace(/^Invalid Record Length: /, "wrong number of fields: "),
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, unknown>;
    info: { lines: number };
  }>) {
    while (skipped.length) yield skipped.shift()!;
    yield { line: info.lines, record };
  }
  while (skipped.length) yield skipped.shift()!;
}

export async function ingestSamples(
  body: ReadableStream<Uint8Array>,
  format: "csv" | "ndjson",
  variantNames: string[],
): Promise<IngestResult> {
  const variants = new Map(variantNames.map((name) => [name, newAccumulator()]));
  const result: IngestResult = { variants, accepted: 0, rejected: 0, errors: [] };
  const text = decodedText(body);
  try {
    for await (const item of format === "csv" ? csvRecords(text) : ndjsonRecords(text)) {
      let message = item.error;
      if (!message) {
        try {
          addRow(normaliseRecord(item.record!), variants);
          result.accepted++;
          continue;
        } catch (error) {
          message = (error as Error).message;
        }
      }
      result.rejected++;
      if (result.errors.length < MAX_REPORTED_ERRORS) result.errors.push({ line: item.line, message });
    }
  } catch (error) {
    if (error instanceof TypeError && /encoded data was not valid|decode/i.test(error.message)) {
      throw new AppError(
        "BAD_REQUEST",
        "The file is not UTF-8 text. Save it as UTF-8 (CSV UTF-8 in spreadsheet programs) and upload again; nothing was stored.",
      );
    }
    if (error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("CSV_")) {
      throw new AppError("VALIDATION_FAILED", `The CSV cannot be read: ${error.message}. Nothing was stored.`);
    }
    throw error;
  }
  // The CSV parser reports a malformed record as soon as it sees it, ahead of the good records
  // before it that are still queued; the report reads in file order.
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}
