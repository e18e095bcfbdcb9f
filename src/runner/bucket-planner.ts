import type { Check } from '../checks/types.js';
import type { Profile } from '../profile/types.js';

type Planned = Pick<Check, 'id' | 'needs' | 'fills'>;

function agencyOf(bucket: string): string {
  const i = bucket.indexOf(':');
  return i < 0 ? bucket : bucket.slice(0, i);
}

/**
 * Decides, against a target whose clock cannot be moved, which checks may run
 * at once. A check that fills a bucket holds its agency's buckets alone (its
 * own few other requests would upset another filler's count); a check that
 * fills nothing only uses agency 0 (and 1 when it needs a second agency)
 * lightly, and shares. A filled bucket stays hot for one window after its
 * check ends, and nobody using it starts before that.
 */
export class BucketPlanner {
  private readonly exclusive = new Map<string, string>();
  private readonly light = new Map<string, number>();
  private readonly hotUntil = new Map<string, number>();
  private running = 0;

  constructor(
    private readonly windowMs: number,
    private readonly maxConcurrent = 8,
  ) {}

  /** Buckets a check holds alone, and buckets it uses lightly. */
  static uses(check: Planned): { exclusive: string[]; light: string[] } {
    const fills = check.fills ?? [];
    if (fills.length > 0) {
      const agencies = [...new Set(fills.map(agencyOf))];
      return { exclusive: agencies.flatMap((a) => [`${a}:read`, `${a}:write`]), light: [] };
    }
    const agencies = check.needs.includes('second-agency') ? ['0', '1'] : ['0'];
    return { exclusive: [], light: agencies.flatMap((a) => [`${a}:read`, `${a}:write`]) };
  }

  /** True when `check` may start at `now`. */
  canStart(check: Planned, now: number): boolean {
    if (this.running >= this.maxConcurrent) return false;
    const { exclusive, light } = BucketPlanner.uses(check);
    for (const b of [...exclusive, ...light]) {
      if (this.exclusive.has(b)) return false;
      if ((this.hotUntil.get(b) ?? 0) > now) return false;
    }
    for (const b of exclusive) if ((this.light.get(b) ?? 0) > 0) return false;
    return true;
  }

  start(check: Planned): void {
    const { exclusive, light } = BucketPlanner.uses(check);
    for (const b of exclusive) this.exclusive.set(b, check.id);
    for (const b of light) this.light.set(b, (this.light.get(b) ?? 0) + 1);
    this.running += 1;
  }

  /** Releases a check's buckets; the ones it filled stay hot for a window (plus a second of margin). */
  finish(check: Planned, now: number): void {
    const { exclusive, light } = BucketPlanner.uses(check);
    for (const b of exclusive) this.exclusive.delete(b);
    for (const b of light) this.light.set(b, Math.max(0, (this.light.get(b) ?? 0) - 1));
    for (const b of check.fills ?? []) this.hotUntil.set(b, now + this.windowMs + 1000);
    this.running -= 1;
  }

  /** The next instant after `now` at which a hot bucket cools, if any. */
  nextCoolAt(now: number): number | undefined {
    const later = [...this.hotUntil.values()].filter((t) => t > now);
    return later.length > 0 ? Math.min(...later) : undefined;
  }

  get active(): number {
    return this.running;
  }
}

/** What a check is assumed to take beyond its waits, for estimates. */
const BASE_CHECK_MS = 1000;

/**
 * Estimates a real-time run by playing the planner's schedule on a virtual
 * clock, each check taking its `waitsMs` (plus a second): the critical path,
 * and the serial sum for comparison.
 */
export function estimateRealTime(checks: readonly Check[], profile: Profile, maxConcurrent = 8): { estimateMs: number; serialMs: number } {
  const windowMs = profile.limits.window_s * 1000;
  const cost = (c: Check): number => BASE_CHECK_MS + Math.max(0, c.waitsMs?.(profile) ?? 0);
  const serialMs = checks.reduce((sum, c) => sum + cost(c), 0);
  const planner = new BucketPlanner(windowMs, maxConcurrent);
  const pending = [...checks.filter((c) => !c.runsLast), ...checks.filter((c) => c.runsLast)];
  const running: Array<{ check: Check; endsAt: number }> = [];
  let now = 0;
  while (pending.length > 0 || running.length > 0) {
    for (let i = 0; i < pending.length; ) {
      const c = pending[i]!;
      const lastBlocked = c.runsLast && (running.length > 0 || pending.some((p) => !p.runsLast));
      if (!lastBlocked && planner.canStart(c, now)) {
        planner.start(c);
        running.push({ check: c, endsAt: now + cost(c) });
        pending.splice(i, 1);
      } else i++;
    }
    const nextEnd = running.length > 0 ? Math.min(...running.map((r) => r.endsAt)) : Infinity;
    const nextCool = planner.nextCoolAt(now) ?? Infinity;
    const next = Math.min(nextEnd, nextCool);
    if (!Number.isFinite(next)) break;
    now = next;
    for (let i = running.length - 1; i >= 0; i--) {
      if (running[i]!.endsAt <= now) {
        planner.finish(running[i]!.check, now);
        running.splice(i, 1);
      }
    }
  }
  return { estimateMs: now, serialMs };
}
