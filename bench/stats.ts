/** Small statistics for benchmark rounds: median and spread. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** `median (min–max)` of the values, rounded. */
export function spread(values: readonly number[], digits = 0): string {
  const text = (v: number) => String(round(v, digits));
  return `${text(median(values))} (${text(Math.min(...values))}–${text(Math.max(...values))})`;
}
