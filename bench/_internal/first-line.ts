import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The child's first output line that `accept`s; every other line goes to
 * stderr (diagnostic flags such as `--trace-gc` write to stdout too, and the
 * pipe must keep draining).
 */
export function firstLine(child: ChildProcess, accept: (line: string) => boolean = () => true): Promise<string> {
  return new Promise((resolve, reject) => {
    let found = false;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!found && accept(line)) {
        found = true;
        resolve(line);
      } else process.stderr.write(`${line}\n`);
    });
    child.once('exit', (c) => reject(new Error(`child exited ${c}`)));
  });
}
