import { redirect } from "next/navigation";

export default async function ServicePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  redirect(`/services/${encodeURIComponent(slug)}/waterfall`);
}
