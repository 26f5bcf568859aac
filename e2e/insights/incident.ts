import { expect } from "@playwright/test";
import { TRAFFIC_PORT } from "../../playwright.config";

/** Flips the demo traffic's incident switch. */
export async function setIncident(mode: "none" | "rag" | "queue") {
  const response = await fetch(`http://127.0.0.1:${TRAFFIC_PORT}/incident?mode=${mode}`, { method: "POST" });
  expect(response.ok).toBe(true);
}
