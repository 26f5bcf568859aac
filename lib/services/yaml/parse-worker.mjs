// @ts-check
// Parses YAML documents off the event loop: ./parse.ts keeps a few of these worker threads and
// sends each one job at a time. Plain JavaScript, so the same file runs under Next's bundle, Node
// and the tests.
//
// Duplicate keys are found by one pass over each mapping with a Set: the yaml library's own
// `uniqueKeys` check compares every key with every earlier one, which took 21 s on a 500 KB
// mapping while nothing else could run.
import { parentPort } from "node:worker_threads";
import { LineCounter, isMap, isScalar, parseAllDocuments, visit } from "yaml";

/** @typedef {{ text: string; maxDocuments: number; maxAliasCount: number }} Input */
/** @typedef {{ value: unknown; error: string | null }} ParsedDocument */

/**
 * @param {Input} input
 * @returns {{ documents: ParsedDocument[] } | { tooMany: true }}
 */
function parse({ text, maxDocuments, maxAliasCount }) {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { uniqueKeys: false, lineCounter });
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length > maxDocuments) return { tooMany: true };
  return {
    documents: list.map((document) => {
      const [error] = document.errors;
      if (error) return { value: null, error: `is not valid YAML: ${error.message.split("\n")[0]}` };
      const duplicate = firstDuplicateKey(document, lineCounter);
      if (duplicate) return { value: null, error: `is not valid YAML: ${duplicate}` };
      try {
        return { value: document.toJS({ maxAliasCount }), error: null };
      } catch (e) {
        return {
          value: null,
          error: `cannot be read: ${e instanceof Error ? e.message.split("\n")[0] : "unknown error"}`,
        };
      }
    }),
  };
}

/**
 * @param {import("yaml").Document} document
 * @param {LineCounter} lineCounter
 * @returns {string | null}
 */
function firstDuplicateKey(document, lineCounter) {
  /** @type {string | null} */
  let found = null;
  visit(document, {
    Map(_key, map) {
      const seen = new Set();
      for (const pair of map.items) {
        const key = pair.key;
        const name = isScalar(key) ? `${typeof key.value}:${String(key.value)}` : isMap(key) ? null : String(key);
        if (name === null) {
          found = "mapping keys must be plain values";
          return visit.BREAK;
        }
        if (seen.has(name)) {
          const offset = isScalar(key) && key.range ? key.range[0] : 0;
          const { line, col } = lineCounter.linePos(offset);
          found = `Map keys must be unique at line ${line}, column ${col}`;
          return visit.BREAK;
        }
        seen.add(name);
      }
      return undefined;
    },
  });
  return found;
}

parentPort?.on("message", (/** @type {Input} */ input) => parentPort?.postMessage(parse(input)));
