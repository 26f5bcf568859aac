// Annotation markers on every timeline: one colour per kind, the same on every chart.

export type Marker = { at: number; kind: string; text: string };

export const MARKER_COLORS: Record<string, string> = {
  deploy: "#7c3aed",
  note: "#64748b",
  budget: "#0284c7",
  slo: "#d97706",
  experiment: "#059669",
  alert: "#dc2626",
};
