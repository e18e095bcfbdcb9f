/** One check's claim on concrete agency resources (`<agency index>:<resource>`, e.g. `2:write`). */
export interface Lease {
  /** Who holds it (a check id). */
  holder: string;
  /** Resources held alone for the whole run of the check. */
  resources: readonly string[];
  /** Buckets (`<agency>:read`, `<agency>:write`) it fills on purpose. */
  fills: readonly string[];
  /** Buckets it fills up from whatever they hold: they need no rest before it, and cool a window after it like `fills`. */
  tops?: readonly string[] | undefined;
  /** Requests it sends to each bucket it touches without filling it (a rough count, for the bucket budget). */
  requests: number;
  /** Requests it sends to some buckets, where they differ from `requests`. */
  perBucket?: Readonly<Record<string, number>> | undefined;
}

/** Options of a `LeasePlanner`. */
export interface LeasePlannerOptions {
  /** Length of the rate-limit window, ms. */
  windowMs: number;
  /** Most leases at once. @defaultValue 8 */
  maxConcurrent?: number;
  /** The limit of a bucket (`<agency>:read`), when known: checks that do not fill it keep well below it over a window. */
  limitOf?: (bucket: string) => number | undefined;
  /** Added to every window a bucket must rest, ms (clock and network slack). @defaultValue a quarter window, at most 1000 */
  marginMs?: number;
  /** When each bucket got its last request before the schedule began (reading the target's facts), in the planner's time: it rests a window from then. */
  usedAt?: ReadonlyMap<string, number> | undefined;
}

/** What a lease holder really sent to each bucket while it held it: how many requests counted there (0 when it only may have) and when the last went. */
export type BucketUse = ReadonlyMap<string, { n: number; lastAt: number }>;

const isBucket = (r: string): boolean => r.endsWith(':read') || r.endsWith(':write');

/** Requests `lease` declares for bucket `b`. */
export const requestsTo = (lease: Lease, b: string): number => lease.perBucket?.[b] ?? lease.requests;

/** Part of a bucket's limit that checks not filling it may spend within one window: their counts are upper bounds, with a little slack. */
const BUDGET_SHARE = 0.9;

/**
 * Decides, against a target whose clock cannot be moved, which checks may run
 * at once, so that none shares what it measures with another:
 * - a lease is exclusive: two checks with a common resource never overlap;
 * - a filled bucket cools for one window after its filler ends, before anyone uses it;
 * - a filler starts only on a bucket nobody used for one window (its count starts at zero);
 * - the others together stay within 90% of a bucket's limit over any window.
 */
export class LeasePlanner {
  private readonly held = new Map<string, string>();
  private readonly coolUntil = new Map<string, number>();
  private readonly quietUntil = new Map<string, number>();
  private readonly spent = new Map<string, Array<{ holder: string; n: number; until: number }>>();
  private running = 0;
  private readonly windowMs: number;
  private readonly maxConcurrent: number;
  private readonly marginMs: number;
  private readonly limitOf: (bucket: string) => number | undefined;

  constructor(options: LeasePlannerOptions) {
    this.windowMs = options.windowMs;
    this.maxConcurrent = options.maxConcurrent ?? 8;
    this.marginMs = options.marginMs ?? Math.min(1000, options.windowMs / 4);
    this.limitOf = options.limitOf ?? (() => undefined);
    for (const [b, at] of options.usedAt ?? []) this.quietUntil.set(b, at + this.windowMs + this.marginMs);
  }

  /** True when `lease` may start at `now`. */
  canStart(lease: Lease, now: number): boolean {
    if (this.running >= this.maxConcurrent) return false;
    return this.canTake(lease, now);
  }

  /** True when the resources of `lease` may be taken at `now` by a holder already running (one that gave them back for a wait). */
  canTake(lease: Lease, now: number): boolean {
    for (const r of lease.resources) {
      if (this.held.has(r)) return false;
      if ((this.coolUntil.get(r) ?? 0) > now) return false;
    }
    for (const b of lease.fills) if ((this.quietUntil.get(b) ?? 0) > now) return false;
    for (const b of lease.resources.filter(isBucket)) {
      // A bucket filled from empty needs its rest, not room; one topped up needs room for what is sent before the top-up.
      if (lease.fills.includes(b)) continue;
      const limit = this.limitOf(b);
      if (limit === undefined) continue;
      const used = (this.spent.get(b) ?? []).filter((u) => u.until > now).reduce((sum, u) => sum + u.n, 0);
      // A lone check may always start on a rested bucket, even when its rough count is above the share; one that tops the bucket up may use it all.
      const share = lease.tops?.includes(b) ? 1 : BUDGET_SHARE;
      if (used > 0 && used + requestsTo(lease, b) > limit * share) return false;
    }
    return true;
  }

  /**
   * When `lease` could start if nothing else changed: the end of the rests and
   * cooling it waits for (its budget share aside); undefined while another
   * holder has one of its resources.
   */
  dueAt(lease: Lease, now: number): number | undefined {
    if (lease.resources.some((r) => this.held.has(r))) return undefined;
    const ends = [...lease.resources.map((r) => this.coolUntil.get(r) ?? 0), ...lease.fills.map((b) => this.quietUntil.get(b) ?? 0)];
    return Math.max(now, ...ends);
  }

  /** True while a holder has resource `r`. */
  isHeld(r: string): boolean {
    return this.held.has(r);
  }

  /** Takes the lease (call after `canStart`). */
  start(lease: Lease): void {
    this.take(lease);
    this.running += 1;
  }

  /** Takes the resources of `lease` for a holder already running (call after `canTake`). */
  take(lease: Lease): void {
    for (const r of lease.resources) this.held.set(r, lease.holder);
    for (const b of lease.resources.filter(isBucket)) {
      const list = this.spent.get(b) ?? [];
      list.push({ holder: lease.holder, n: lease.fills.includes(b) ? 0 : requestsTo(lease, b), until: Infinity });
      this.spent.set(b, list);
    }
  }

  /**
   * Gives the lease back at `now`. Its buckets rest a window after their last
   * request (filled ones for everyone, from `now`). With `used`, a bucket the
   * holder sent nothing to is free at once, and its budget counts what was sent.
   */
  finish(lease: Lease, now: number, used?: BucketUse): void {
    this.free(lease, lease.resources, now, used, true);
    this.running -= 1;
  }

  /**
   * Gives back, at `now`, every resource of `lease` but `keep` (the holder goes
   * on with those, e.g. through a wait that touches nothing else); returns the
   * lease it still holds, to `finish` later.
   */
  release(lease: Lease, keep: readonly string[], now: number, used?: BucketUse): Lease {
    const kept = lease.resources.filter((r) => keep.includes(r));
    this.free(
      lease,
      lease.resources.filter((r) => !kept.includes(r)),
      now,
      used,
    );
    return { ...lease, resources: kept, fills: lease.fills.filter((b) => kept.includes(b)), tops: lease.tops?.filter((b) => kept.includes(b)) };
  }

  private free(lease: Lease, resources: readonly string[], now: number, used: BucketUse | undefined, ends = false): void {
    for (const r of resources) if (this.held.get(r) === lease.holder) this.held.delete(r);
    for (const b of resources.filter(isBucket)) {
      // A bucket it tops up is full only once it ends (it tops it up last); one it fills, from its fill on.
      const filled = lease.fills.includes(b) || (ends && (lease.tops?.includes(b) ?? false));
      const use = used === undefined || filled ? { n: filled ? 0 : requestsTo(lease, b), lastAt: now } : used.get(b);
      const list = (this.spent.get(b) ?? []).filter((u) => u.until > now || (u.holder === lease.holder && u.until === Infinity));
      const mine = list.find((u) => u.holder === lease.holder && u.until === Infinity);
      if (mine) list.splice(list.indexOf(mine), 1);
      if (use !== undefined) {
        const rest = use.lastAt + this.windowMs + this.marginMs;
        this.quietUntil.set(b, Math.max(this.quietUntil.get(b) ?? 0, rest));
        if (use.n > 0) list.push({ holder: lease.holder, n: use.n, until: rest });
      }
      this.spent.set(b, list);
      if (filled) this.coolUntil.set(b, Math.max(this.coolUntil.get(b) ?? 0, now + this.windowMs + this.marginMs));
    }
  }

  /** The target was put back to its fixture: every bucket is empty and rested (held resources stay held). */
  forget(): void {
    this.coolUntil.clear();
    this.quietUntil.clear();
    for (const [b, list] of this.spent)
      this.spent.set(
        b,
        list.filter((u) => u.until === Infinity),
      );
  }

  /** The next instant after `now` at which a waiting check may become able to start (a bucket cools or rests), if any. */
  nextChangeAt(now: number): number | undefined {
    const times = [...this.coolUntil.values(), ...this.quietUntil.values(), ...[...this.spent.values()].flat().map((u) => u.until)].filter(
      (t) => t > now && Number.isFinite(t),
    );
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** The instant from which every bucket used so far has rested a window (filled ones cooled). */
  restedAt(): number {
    return Math.max(0, ...this.coolUntil.values(), ...this.quietUntil.values());
  }

  /** Leases held now. */
  get active(): number {
    return this.running;
  }
}
