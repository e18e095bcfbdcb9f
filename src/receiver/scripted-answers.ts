import type { ServerResponse } from 'node:http';
import { DEFAULT_PLAN, statusFor, validatePlan, type ResponsePlan } from './response-plan.js';

/** What each path answers, per its script and how many requests it has had. */
export class ScriptedAnswers {
  private plans = new Map<string, ResponsePlan>();
  private counts = new Map<string, number>();
  private readonly delayed = new Set<NodeJS.Timeout>();

  /** Sets what `path` answers from now on, and restarts its attempt count. */
  script(path: string, plan: ResponsePlan): void {
    validatePlan(plan);
    this.plans.set(path, plan);
    this.counts.delete(path);
  }

  /** The status and delay of the next request to `path`, counting it. */
  next(path: string): { status: number; delayMs: number } {
    const plan = this.plans.get(path) ?? DEFAULT_PLAN;
    const index = this.counts.get(path) ?? 0;
    this.counts.set(path, index + 1);
    return { status: statusFor(plan, index), delayMs: plan.delayMs ?? 0 };
  }

  /** Answers `{}` with `status`, after `delayMs` when scripted so (unless the client has gone). */
  send(res: ServerResponse, status: number, delayMs: number): void {
    const send = (): void => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
    };
    if (delayMs <= 0) return send();
    const t = setTimeout(() => {
      this.delayed.delete(t);
      send();
    }, delayMs);
    this.delayed.add(t);
  }

  /** Forgets scripts and attempt counts. */
  clear(): void {
    this.plans = new Map();
    this.counts = new Map();
  }

  /** Drops the delayed answers not sent yet. */
  close(): void {
    for (const t of this.delayed) clearTimeout(t);
    this.delayed.clear();
  }
}
