import type { LoadProgress } from './drive-load.js';

/** A progress sink for a load: a bar redrawn in place on a terminal, a plain line every few seconds otherwise (CI). */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): { update(p: LoadProgress): void; done(): void } {
  const tty = stream.isTTY === true && !env.CI;
  let lastPlain = -Infinity;
  let drawn = false;
  return {
    update(p) {
      const pct = Math.min(1, p.durationS > 0 ? p.elapsedS / p.durationS : 1);
      // Past the duration the load has stopped sending and waits for answers in flight and the last probes.
      const time = p.elapsedS <= p.durationS ? `${p.elapsedS}/${p.durationS} s` : `${p.durationS} s done, finishing`;
      const text = `${time}  ${p.requests} req  ${p.rps} rps  429 ${p.requests ? ((100 * p.rateLimited) / p.requests).toFixed(1) : '0.0'}%  errors ${p.errors}`;
      if (tty) {
        const width = 24;
        const full = Math.round(pct * width);
        stream.write(`\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${text}\u001b[K`);
        drawn = true;
      } else if (p.elapsedS - lastPlain >= 5 || (pct >= 1 && lastPlain < p.durationS)) {
        stream.write(`load: ${text}\n`);
        lastPlain = p.elapsedS;
      }
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}
