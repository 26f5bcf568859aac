"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-6 dark:border-red-900 dark:bg-red-950">
      <h1 className="text-lg font-semibold">This page could not load</h1>
      <p className="mt-2 text-sm">{error.message || "Something went wrong on our side."}</p>
      <button type="button" onClick={reset} className="mt-4 rounded-md border px-3 py-1.5 text-sm">
        Try again
      </button>
    </div>
  );
}
