import type * as fc from 'fast-check';
import type { Need } from '../src/checks/types.js';
import type { PropertyEnv } from './_internal/property-env.js';

/** A property ready for `fc.check`, with the way its counterexample is shown. */
export interface BuiltProperty<T> {
  property: fc.IAsyncPropertyWithHooks<[T]>;
  /** A short rendering of one generated value (e.g. `book[k0],replay[k0]`). */
  render(value: T): string;
  /** What the case's details add once it has run (what was generated, per operation). */
  details?(): Record<string, unknown>;
  /** What it could not judge against this target, in a few words (a case that holds says so in its message); undefined when it judged everything. */
  unjudged?(): string | undefined;
  /** Sets back what it changed on the target for its runs (an agency's webhook endpoint), once they are over. */
  finish?(): Promise<void>;
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
  /** It leaves a rate-limit bucket full on purpose: in real time it runs after the others, never beside a scenario's wait. */
  fills?: boolean;
  // oxlint-disable-next-line typescript/no-explicit-any -- each property draws its own input type; one list holds them all
  build(env: PropertyEnv, replay?: { replayPath?: string }): BuiltProperty<any> | Promise<BuiltProperty<any>>;
  /**
   * Against a target whose clock cannot be moved: the runs it makes (and
   * why that many) and the property that makes them, or why it cannot run.
   * Absent: `build` as with a movable clock.
   */
  realTime?(input: RealTimeInput): RealTimePlan | { skip: string } | Promise<RealTimePlan | { skip: string }>;
}

/** What a property plans its real-time runs from. */
export interface RealTimeInput {
  /** One environment per agency it may book with, the one it is planned on first. */
  envs: readonly PropertyEnv[];
  /** Runs asked for (the caller's, else the property's default). */
  numRuns: number;
  /** Writes of its window to leave free for the property that books with the same agency right after it. */
  leaveWrites: number;
  /** fast-check's replay path of a shrunk command list (model-based properties). */
  replayPath?: string | undefined;
}

/** How a property runs in real time. */
export interface RealTimePlan {
  // oxlint-disable-next-line typescript/no-explicit-any -- as in `build`
  built: BuiltProperty<any>;
  /** fast-check runs: 1 where one run judges every generated case against one wait. */
  fcRuns: number;
  /** The runs (cases judged) it makes. */
  runs: number;
  /** Why that many runs, in a few words (it goes into the case's message and details). */
  why: string;
  /** Its own wall-clock budget, ms, when the default does not fit. */
  timeLimitMs?: number;
}
