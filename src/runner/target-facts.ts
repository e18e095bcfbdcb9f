import type { Check, LearnedTarget, Need } from '../checks/types.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { overMaxWait } from '../clock/max-wait.js';
import type { Profile } from '../profile/index.js';

/** What the runner knows about the target, to decide which needs are met. */
export interface TargetFacts {
  clock: 'mock' | 'real';
  /** Agencies whose signing secret is resolved. */
  agencies: number;
  /** Hotel API reachable: a base url and the primary agency's key. Otherwise the reason. */
  hotel: true | string;
  failureTrigger: boolean;
  receiver: boolean;
  /** Products open and closed for the primary agency, or why they are unknown. */
  products: { open: string[]; closed: string[] } | { error: string };
  primaryAgency: string;
}

/** Why `need` is not met, or undefined when it is. */
function unmetReason(need: Need, facts: TargetFacts): string | undefined {
  switch (need) {
    case 'clock-control':
      return facts.clock === 'mock' ? undefined : 'needs clock control: the target clock cannot be moved (profile clock.control is "none")';
    case 'second-agency':
      return facts.agencies >= 2 ? undefined : 'needs a second agency: the profile resolves only one (add agencies[1] and set its secret)';
    case 'receiver':
      return facts.receiver ? undefined : 'needs a webhook receiver the target can reach: set receiver.public_url in the profile or pass --receiver-url';
    case 'hotel':
      return facts.hotel === true ? undefined : `needs the hotel API: ${facts.hotel}`;
    case 'failure-trigger':
      return facts.failureTrigger ? undefined : 'needs a way to make the supplier refuse a booking: profile failure_trigger is null';
    case 'closed-product':
      if ('error' in facts.products) return `needs a product outside the contract, but the account could not be read: ${facts.products.error}`;
      return facts.products.closed.length > 0 ? undefined : `needs a product outside the contract: every product is open for ${facts.primaryAgency}`;
    case 'open-product':
      if ('error' in facts.products) return `needs an open product, but the account could not be read: ${facts.products.error}`;
      return facts.products.open.length > 0 ? undefined : `needs an open product: none is open for ${facts.primaryAgency}`;
  }
}

/** The first unmet need of a check, as a SKIP message; undefined when it can run. */
export function skipReason(check: Pick<Check, 'needs'>, facts: TargetFacts): string | undefined {
  for (const need of check.needs) {
    const reason = unmetReason(need, facts);
    if (reason) return reason;
  }
  return undefined;
}

/** The longest single wait `check` makes, ms: its `uses.wait.longestMs`, else its wait at the run's start; 0 when it declares none. */
function longestWaitMs(check: Pick<Check, 'uses'>, profile: Readonly<Profile>, learned: LearnedTarget | undefined): number {
  const wait = check.uses?.wait;
  const ms = wait ? (wait.longestMs ?? wait.ms)(profile, learned) : 0;
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * Why `check` is not run: against a clock that cannot be moved, its longest
 * wait is over the run's `--max-wait` (`overMaxWait`, the one rule for long
 * waits in real time), as a SKIP message; undefined when it runs.
 */
export function maxWaitReason(
  check: Pick<Check, 'uses'>,
  clock: Pick<ClockDriver, 'kind'>,
  profile: Readonly<Profile>,
  learned: LearnedTarget | undefined,
  maxWaitMs: number | undefined,
): string | undefined {
  return overMaxWait(clock, longestWaitMs(check, profile, learned), maxWaitMs, check.uses?.wait?.why);
}
