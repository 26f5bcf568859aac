"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Allowed, useCan } from "@/components/auth/viewer";
import { Button, EmptyState } from "@/components/ui/primitives";
import { apiFetch } from "@/lib/queries/api";
import { urls } from "@/lib/queries/resources";

// The board of a database with no services (a team's first start): make the first service, or add
// the demo's three examples to look around. Nothing is added unless someone asks.

export function FirstRun() {
  const client = useQueryClient();
  const canCreate = useCan("service.create");
  const examples = useMutation({
    mutationFn: () => apiFetch<{ created: string[] }>(urls.examples(), { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: ["status"] }),
  });
  return (
    <EmptyState title="No services yet">
      <div className="space-y-3">
        <p>
          A service is an LLM or RAG endpoint with an end-to-end latency target.{" "}
          {canCreate ? (
            <Link className="text-sky-600 underline" href="/services/new">
              Create the first one
            </Link>
          ) : (
            "Create the first one"
          )}{" "}
          and split its target over the pipeline, or start from the examples: a chat API, a RAG answer and a RAG
          chatbot, with their budgets, SLOs and an experiment.
        </p>
        <Allowed action="examples.add">
          <Button variant="primary" disabled={examples.isPending} onClick={() => examples.mutate()}>
            {examples.isPending ? "Adding the examples…" : "Add the examples"}
          </Button>
        </Allowed>
        {examples.error && (
          <p role="alert" className="text-red-600">
            {examples.error.message}
          </p>
        )}
      </div>
    </EmptyState>
  );
}
