import Link from "next/link";

export default function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">There is no such service or page.</p>
      <Link href="/" className="mt-4 inline-block text-sky-600 underline">
        Back to all services
      </Link>
    </div>
  );
}
