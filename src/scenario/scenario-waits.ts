import type { Profile } from '../profile/types.js';
import type { Scenario, Step } from './types.js';
import { interpolate, readPath } from './values.js';

/**
 * Target time the `wait` steps of `scenarios` take, ms (to plan real-time
 * runs). A duration naming the profile (`{{profile.limits.window_s}}`) is read
 * from it; one naming the quote lifetime takes the lifetime the service
 * answered when known. A duration that depends on values saved at run time
 * counts as 0.
 */
export function scenarioWaitsMs(scenarios: readonly Scenario[], profile: Readonly<Profile>, quoteLifetimeS?: number): number {
  const view = quoteLifetimeS === undefined ? profile : { ...profile, quotes: { ...profile.quotes, lifetime_s: quoteLifetimeS } };
  const resolve = (name: string): unknown => (name.startsWith('profile.') ? readPath(view, name.slice('profile.'.length)) : undefined);
  const of = (steps: readonly Step[]): number =>
    steps.reduce((sum, step) => {
      const par = step.params;
      if (step.action === 'repeat') {
        const inner = of(step.steps ?? []);
        return sum + (par.concurrent === true ? inner : inner * Number(par.count ?? 1));
      }
      if (step.action !== 'wait') return sum;
      let n = NaN;
      try {
        n = Number(interpolate(par.ms ?? par.s, resolve));
      } catch {
        // a value saved at run time: unknown here
      }
      if (!Number.isFinite(n) || n < 0) return sum;
      return sum + (par.ms !== undefined ? n : n * 1000);
    }, 0);
  return scenarios.reduce((sum, s) => sum + of(s.steps), 0);
}
