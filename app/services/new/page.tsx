import type { Metadata } from "next";
import { NewServiceForm } from "@/components/services/new-service-form";
import { requireViewer } from "@/lib/services/pages";
import { Allowed } from "@/components/auth/viewer";

export const metadata: Metadata = { title: "New service" };

export default async function NewServicePage() {
  await requireViewer();
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-semibold">New service</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Name the endpoint and its end-to-end target. You split the target over pipeline stages next.
      </p>
      <Allowed action="service.create">
        <NewServiceForm />
      </Allowed>
    </div>
  );
}
