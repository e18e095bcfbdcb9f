import type { CaseResult } from '../../results/model.js';

/** One operation's row: what a property generated for it. */
interface InputsRow {
  operation: string;
  valid: number;
  invalid: number;
  keywords: string[];
}

/** What a generating property's case says it generated, per operation, with its seed; undefined when the case says nothing of it. */
export function generatedInputs(c: CaseResult): { seed: unknown; rows: InputsRow[] } | undefined {
  const ops = c.details?.['operations'];
  if (c.kind !== 'property' || !Array.isArray(ops)) return undefined;
  const rows = ops.flatMap((o: unknown): InputsRow[] => {
    const r = o as Partial<InputsRow>;
    if (typeof r.operation !== 'string') return [];
    return [
      {
        operation: r.operation,
        valid: Number(r.valid ?? 0),
        invalid: Number(r.invalid ?? 0),
        keywords: Array.isArray(r.keywords) ? r.keywords.map(String) : [],
      },
    ];
  });
  return rows.length ? { seed: c.details?.['seed'], rows } : undefined;
}
