// Per-operation status coverage: which of the statuses an operation declares in the bundle the run
// saw it answer with, and what it answered that it does not declare. Declared statuses are the
// bundle's response keys as written ("200", "4XX", "default").

/** The statuses an operation declares: the keys of its `responses`, in the bundle's order. */
export const declaredStatuses = (responses: Record<string, unknown> | undefined): string[] => Object.keys(responses ?? {});

/** Adds a status the target answered to a sorted list, once; no answer (null) adds nothing. */
export function noteSeenStatus(seen: number[], status: number | null | undefined): void {
  if (typeof status !== 'number' || seen.includes(status)) return;
  seen.push(status);
  seen.sort((a, b) => a - b);
}

export interface StatusCoverage {
  /** each declared status with the seen statuses it covers (a range or `default` may cover several) */
  declared: { status: string; seen: number[] }[];
  /** seen statuses that no declared status covers */
  undeclared: number[];
}

// As OpenAPI resolves a status: an exact code first, then its range (4XX), then `default`.
function coveringKey(declared: string[], status: number): string | undefined {
  const exact = String(status);
  if (declared.includes(exact)) return exact;
  const range = declared.find((key) => key.toUpperCase() === `${exact[0]}XX`);
  return range ?? declared.find((key) => key === 'default');
}

export function statusCoverage(declared: string[], seen: number[]): StatusCoverage {
  const coverage: StatusCoverage = { declared: declared.map((status) => ({ status, seen: [] })), undeclared: [] };
  for (const status of seen) {
    const key = coveringKey(declared, status);
    const entry = coverage.declared.find((d) => d.status === key);
    if (entry) entry.seen.push(status);
    else coverage.undeclared.push(status);
  }
  return coverage;
}
