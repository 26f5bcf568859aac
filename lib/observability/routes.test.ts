import { describe, expect, it } from "vitest";
import { routeMatcher } from "./routes";

describe("routeMatcher", () => {
  const match = routeMatcher([
    "/",
    "/services/[slug]",
    "/services/[slug]/waterfall",
    "/services/new",
    "/api/auth/[...all]",
    "/api/services/[slug]/slos/[id]",
    "/api/services/[slug]/rules.yaml",
    "/_not-found",
  ]);

  it.each([
    ["/", "/"],
    ["/services/chat-api", "/services/[slug]"],
    ["/services/new", "/services/new"],
    ["/services/chat-api/waterfall?window=5m", "/services/[slug]/waterfall"],
    ["/api/auth/sign-in/email", "/api/auth/[...all]"],
    ["/api/services/chat-api/slos/0b7e", "/api/services/[slug]/slos/[id]"],
    ["/api/services/chat-api/rules.yaml", "/api/services/[slug]/rules.yaml"],
    ["/api/services/chat-api/rulesXyaml", "(unmatched)"],
    ["/_next/static/chunks/a.js", "/_next/*"],
    ["/no/such/page", "(unmatched)"],
  ])("%s → %s", (path, pattern) => {
    expect(match(path)).toBe(pattern);
  });
});
