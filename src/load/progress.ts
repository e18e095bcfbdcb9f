import type { LoadWait } from './announced-wait.js';
import type { LoadProgress } from './drive-load.js';

/** A progress sink for a load: a bar redrawn in place on a terminal, a plain line every few seconds otherwise (CI). */
export function loadProgressBar(
  stream: NodeJS.WriteStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): { update(p: LoadProgress): void; done(): void } {
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
      drawn = false;
    },
  };
}

/**
 * Announces the waits of a load, each with its length: on a terminal one
 * line counts down the longest wait in progress, once a second; otherwise
 * (CI, a pipe) one plain line per wait that ends later than those already
 * announced. Waits running side by side (one per agency) show as one.
 */
export function waitPrinter(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): { wait(w: LoadWait): void; done(): void } {
  const tty = stream.isTTY === true && !env.CI;
  let endsAt = 0;
  let why = '';
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
    stream.write(`\rwaiting ${left} s: ${why}\u001b[K`);
    if (left === 0) stop();
  };
  const stop = (): void => {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
    stream.write('\n');
  };
  return {
    wait(w) {
      const end = Date.now() + w.ms;
      if (end <= endsAt) return;
      endsAt = end;
      why = w.why;
      if (!tty) {
        stream.write(`load: waiting ${(w.ms / 1000).toFixed(0)} s: ${w.why}\n`);
        return;
      }
      timer ??= setInterval(draw, 1000);
      timer.unref();
      draw();
    },
    done: stop,
  };
}
