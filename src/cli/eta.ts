// The time left of a long command, from its pace so far: shown at the end of train's and
// sweep's progress lines ("ETA 12m 30s").

/** "45s", "3m 20s", "1h 02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** "ETA 3m 20s" at the pace of `done` units in `elapsedS` seconds; "" before the first unit or after the last. */
export function etaText(elapsedS: number, done: number, total: number): string {
  if (done <= 0 || done >= total || !(elapsedS > 0)) return '';
  return `ETA ${formatDuration((elapsedS / done) * (total - done))}`;
}
