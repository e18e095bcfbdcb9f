import type * as fc from 'fast-check';
import type { Need } from '../src/checks/types.js';
import type { PropertyEnv } from './_internal/property-env.js';

/** A property ready for `fc.check`, with the way its counterexample is shown. */
export interface BuiltProperty<T> {
  property: fc.IAsyncPropertyWithHooks<[T]>;
  /** A short rendering of one generated value (e.g. `book[k0],replay[k0]`). */
  render(value: T): string;
}

/** One fast-check property run against the live target. */
export interface PropertyDef {
  /** Stable name; the case id is `property:<name>`. */
  name: string;
  title: string;
  /** The SPEC.md clause it proves. */
  clause: string;
  /** What the target must offer; unmet needs make the property SKIP with the reason. */
  needs: Need[];
  /** Runs when the caller gives no `numRuns`. */
  defaultNumRuns: number;
  /** Writes one run sends, roughly (to plan real-time runs: the write limit paces them). @defaultValue 0 */
  writesPerRun?: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each property draws its own input type; one list holds them all
  build(env: PropertyEnv, replay?: { replayPath?: string }): BuiltProperty<any>;
}
