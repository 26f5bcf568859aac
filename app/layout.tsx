import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { UserMenu } from "@/components/auth/user-menu";
import { ViewerProvider } from "@/components/auth/viewer";
import { Providers } from "@/components/providers";
import { pageViewer } from "@/lib/services/pages";
import { ThemeToggle, themeScript } from "@/components/ui/theme-toggle";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Latency Budgets", template: "%s · Latency Budgets" },
  description: "Where do the milliseconds of your LLM and RAG services go, and are you inside your SLO?",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [viewer, nonce] = await Promise.all([pageViewer(), headers().then((h) => h.get("x-nonce") ?? undefined)]);
  const canRead = viewer.can.read;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen">
        <ViewerProvider viewer={viewer}>
          <Providers>
            <a
              href="#main"
              className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900"
            >
              Skip to content
            </a>
            <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80">
              <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
                <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
                  <span
                    aria-hidden
                    className="inline-block h-4 w-4 rounded-sm bg-gradient-to-br from-sky-500 to-emerald-500"
                  />
                  Latency Budgets
                </Link>
                <nav className="flex items-center gap-4 text-sm">
                  {canRead && (
                    <>
                      <Link href="/" className="hover:underline">
                        Services
                      </Link>
                      <Link href="/experiments" className="hover:underline">
                        Experiments
                      </Link>
                      <Link href="/tradeoffs" className="hover:underline">
                        Trade-offs
                      </Link>
                    </>
                  )}
                  <ThemeToggle />
                  <UserMenu />
                </nav>
              </div>
            </header>
            <main id="main" className="mx-auto max-w-6xl px-4 py-6">
              {children}
            </main>
          </Providers>
        </ViewerProvider>
      </body>
    </html>
  );
}
