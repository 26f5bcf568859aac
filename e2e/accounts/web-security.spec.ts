import { expect, test } from "@playwright/test";

// What every response says to the browser, and mutations another site tries to make.

test.describe("accounts: web security", () => {
  test("pages carry a nonce CSP without eval, and the other security headers", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto("/services/chat-api/waterfall");
    const headers = response!.headers();
    const csp = headers["content-security-policy"]!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-frame-options"]).toBe("DENY");
    // The page works under it: hydrated (the theme toggle responds) and no violation reported.
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("mutations from another origin, or an opaque one, are refused with 403 even with a session", async ({
    request,
  }) => {
    for (const origin of ["https://evil.example", "null"]) {
      const response = await request.post("/api/services", {
        headers: { origin },
        data: { slug: "cross-site", name: "Cross site", stages: [] },
      });
      expect(response.status(), origin).toBe(403);
      expect((await response.json()).error.message).toContain("cross-site");
    }
    const ownOrigin = new URL(test.info().project.use.baseURL!).origin;
    const same = await request.get("/api/me", { headers: { origin: ownOrigin } });
    expect(same.status()).toBe(200);
  });

  test("the session cookie is HttpOnly and SameSite=Lax", async ({ context }) => {
    const cookie = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  });
});
