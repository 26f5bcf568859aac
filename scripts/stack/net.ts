import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on 127.0.0.1:port right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** `preferred` when it is free, else a free port; `wasTaken` says which. */
export async function portOrFree(preferred: number): Promise<{ port: number; wasTaken: boolean }> {
  if (await isPortFree(preferred)) return { port: preferred, wasTaken: false };
  return { port: await freePort(), wasTaken: true };
}

export async function waitFor(
  isReady: () => boolean | Promise<boolean>,
  { timeoutMs, what, intervalMs = 100 }: { timeoutMs: number; what: () => string; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await isReady()) return;
    } catch {
      // not ready yet
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
