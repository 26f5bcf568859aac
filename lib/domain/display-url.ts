// A URL as the app may show it in a message, a log line or a metric label. PROMETHEUS_URL may
// carry a password (`http://reader:secret@prometheus:9090`: Node sends the userinfo as basic
// auth), and a query string or fragment may carry a token; neither is ever shown.

/** `url` without userinfo, query or fragment: `scheme://host[:port][/path]`. */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(a URL that cannot be read)";
  }
  if (!parsed.host) return `${parsed.protocol}…`;
  const path = parsed.pathname.replace(/\/+$/, "");
  return `${parsed.protocol}//${parsed.host}${path}`;
}
