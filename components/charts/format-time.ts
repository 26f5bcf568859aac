// Times on charts and beside them: the hour for a day or less, the weekday and hour beyond.

export function formatTime(unix: number, spanSeconds: number): string {
  const date = new Date(unix * 1000);
  if (spanSeconds > 86_400)
    return date.toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
  return date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}
