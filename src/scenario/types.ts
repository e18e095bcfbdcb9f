/**
 * A scenario: a scripted journey through the service (YAML in `scenarios/`,
 * documented in `scenarios/README.md`), loaded and validated into this shape.
 */

/** Every action a step can take. */
export const STEP_ACTIONS = ['account', 'search', 'book', 'cancel', 'get_booking', 'balance', 'statement', 'rates', 'wait', 'rest', 'repeat', 'set'] as const;

/** One step action's name. */
export type StepAction = (typeof STEP_ACTIONS)[number];

/** A field expectation: a plain value (equality) or comparisons. */
export type FieldMatcher = unknown | { eq?: unknown; ne?: unknown; gt?: unknown; gte?: unknown; lt?: unknown; lte?: unknown; in?: unknown[]; exists?: boolean };

/** What a step's response must show. Every string may hold `{{name}}` interpolations. */
export interface Expectation {
  /** HTTP status, or the statuses allowed. */
  status?: number | number[];
  /** A profile error key (`quote_expired`): its status and code, as the profile says. */
  code?: string;
  /** Values at paths of the step's view. */
  fields?: Record<string, FieldMatcher>;
  /** Whether the response is an idempotent replay (profile header). */
  replayed?: boolean;
  /** Change of the wallet balance over the step, an integer expression such as `-{{price}}` or `{{refund}} - {{price}}`. */
  balance_delta?: string | number;
  /** Status and body bytes identical to a response kept with `as:`. */
  identical_to?: string;
}

/** One validated step. */
export interface Step {
  action: StepAction;
  /** Parameters of the action (validated per action). */
  params: Record<string, unknown>;
  /** Where it stands in the file, e.g. `steps[3]` or `steps[5].repeat.steps[0]`. */
  at: string;
  name?: string;
  /** Saved value name → path in the step's view. */
  save?: Record<string, string>;
  /** Keep the whole response under this name (for `identical_to`). */
  as?: string;
  expect?: Expectation;
  /** When the response matches, the scenario ends as SKIP: the target cannot provide the precondition. */
  skip_if?: Expectation;
  /** Inner steps of a `repeat`. */
  steps?: Step[];
}

/** How a scenario picks its agency: an index into the run's agencies, an agency id, or the first one with the product open. */
export type AgencySelector = number | string;

/** A validated scenario. */
export interface Scenario {
  name: string;
  description: string;
  /** The SPEC.md clause it exercises. */
  clause: string;
  /** Index, id, or `any-with-product`. @defaultValue 0 */
  agency: AgencySelector;
  product?: string;
  steps: Step[];
  /** File it came from. */
  file: string;
}

/** The agency selector that picks the first agency for which `product` is open. */
export const ANY_WITH_PRODUCT = 'any-with-product';
