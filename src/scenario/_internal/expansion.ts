import type { Step } from '../types.js';

/**
 * Most steps a scenario may take once its repeats are counted out: a journey
 * of the shipped scenarios takes a few dozen, and each step is a request whose
 * exchange the run keeps.
 */
const MAX_EXPANDED_STEPS = 2_000;

/** Most bytes of `body` texts a scenario may send once its repeats are counted out (a body is sent again at each repeat). */
const MAX_EXPANDED_BODY_BYTES = 1024 * 1024;

/** What a scenario amounts to once every repeat is counted out. */
interface Expansion {
  steps: number;
  bodyBytes: number;
}

/**
 * Counts the steps and body bytes of `steps` with their repeats expanded,
 * without expanding them: a repeat costs its count times its inner steps
 * (concurrent or not, each iteration is sent).
 */
function expansionOf(steps: readonly Step[]): Expansion {
  let total: Expansion = { steps: 0, bodyBytes: 0 };
  for (const step of steps) {
    if (step.action === 'repeat') {
      const inner = expansionOf(step.steps ?? []);
      const count = Number(step.params.count) || 0;
      total = { steps: total.steps + 1 + count * inner.steps, bodyBytes: total.bodyBytes + count * inner.bodyBytes };
      continue;
    }
    const body = step.params.body;
    total = { steps: total.steps + 1, bodyBytes: total.bodyBytes + (typeof body === 'string' ? Buffer.byteLength(body) : 0) };
  }
  return total;
}

/** Problems of a scenario that expands past the bounds: each names what it comes to and the bound. */
export function expansionProblems(steps: readonly Step[]): string[] {
  const { steps: n, bodyBytes } = expansionOf(steps);
  const out: string[] = [];
  if (n > MAX_EXPANDED_STEPS) out.push(`steps: the repeats expand to ${n} steps, over the bound of ${MAX_EXPANDED_STEPS} steps per scenario`);
  if (bodyBytes > MAX_EXPANDED_BODY_BYTES)
    out.push(`steps: the "body" texts come to ${bodyBytes} bytes once repeats are counted, over the bound of ${MAX_EXPANDED_BODY_BYTES} bytes per scenario`);
  return out;
}
