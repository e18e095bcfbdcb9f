import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `fn` with every request it sends through an exchange client aborted
 * when `signal` aborts. A scope rather than a call option, so that a check's
 * time limit reaches the shared clients of its run without each step passing
 * the signal along.
 */
export function withAbortSignal<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return scope.run(signal, fn);
}

/** The abort signal of the running scope, if any. */
export function currentAbortSignal(): AbortSignal | undefined {
  return scope.getStore();
}
