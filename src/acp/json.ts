// Lenient readers for JSON received from agents.

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** ACP support markers: `{}` (or `true` in older agents) means yes; absent, `null` and `false` mean no. */
export function isAdvertised(marker: unknown): boolean {
  return marker === true || (typeof marker === 'object' && marker !== null);
}
