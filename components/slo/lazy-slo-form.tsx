"use client";

import dynamic from "next/dynamic";

// The SLO form (and its validation code) loads only where it is shown: for people who may create
// or edit SLOs, not with every viewer's SLO page.
export const SloForm = dynamic(() => import("./slo-form").then((m) => m.SloForm));
