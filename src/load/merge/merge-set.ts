import { HarnessError } from '../../errors/harness-error.js';
import type { LoadPart } from './read-load-inputs.js';

/** What identifies a load result: its run id, or for a bare result its span and count. */
function identity(p: LoadPart): string {
  return p.runId !== undefined ? `run ${p.runId}` : `load started ${new Date(p.load.startedAt).toISOString()} with ${p.load.totals.requests} requests`;
}

/**
 * Throws one E_USAGE when the parts cannot be added exactly: the same run
 * given twice (every count would double), a shard given twice, shards cut
 * into different numbers of parts, or a shard set with gaps (1/3 and 3/3
 * without 2/3). Unsharded runs of separate processes may be merged freely.
 */
export function assertMergeable(parts: readonly LoadPart[]): void {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const p of parts) {
    const id = identity(p);
    const first = seen.get(id);
    if (first !== undefined) problems.push(`${p.file} is the same ${id} as ${first} (merging it twice would double every count)`);
    else seen.set(id, p.file);
  }
  const shards = parts.flatMap((p) => p.load.shards.map((s) => ({ ...s, file: p.file })));
  if (shards.length > 0) {
    const counts = [...new Set(shards.map((s) => s.count))];
    if (counts.length > 1) problems.push(`the shards are cut into different numbers of parts (${counts.map((n) => `/${n}`).join(', ')})`);
    else {
      const n = counts[0]!;
      const byIndex = new Map<number, string[]>();
      for (const s of shards) byIndex.set(s.index, [...(byIndex.get(s.index) ?? []), s.file]);
      for (const [index, files] of [...byIndex].sort(([a], [b]) => a - b)) {
        if (files.length > 1 && new Set(files).size === files.length) problems.push(`shard ${index}/${n} is given twice (${files.join(', ')})`);
      }
      const gaps = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
      if (gaps.length > 0)
        problems.push(`shard${gaps.length > 1 ? 's' : ''} ${gaps.map((i) => `${i}/${n}`).join(', ')} ${gaps.length > 1 ? 'are' : 'is'} missing`);
    }
    const unsharded = parts.filter((p) => p.load.shards.length === 0);
    if (unsharded.length > 0)
      problems.push(`${unsharded.map((p) => p.file).join(', ')} ${unsharded.length > 1 ? 'are' : 'is'} not a shard but merged with shards`);
  }
  if (problems.length > 0) throw new HarnessError('E_USAGE', `cannot merge: ${problems.join('; ')}`);
}
