import { HarnessError } from '../../errors/harness-error.js';
import { DEFECT_NAMES, isDefectName, type DefectName } from './catalogue.js';

/** The defects switched on in one mock; read at the one place each defect lives. */
export class DefectSet {
  private readonly on = new Set<DefectName>();

  constructor(initial: Iterable<string> = []) {
    this.enable(initial);
  }

  /** True when `name` is switched on. */
  has(name: DefectName): boolean {
    // Asked about ten times per request: a mock with no defect (the usual one) skips the lookups.
    return this.on.size !== 0 && this.on.has(name);
  }

  /** Switches defects on; an unknown name is a usage error naming it. */
  enable(names: Iterable<string>): void {
    const list = [...names];
    const unknown = list.filter((n) => !isDefectName(n));
    if (unknown.length > 0) {
      throw new HarnessError('E_USAGE', `unknown defect ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${DEFECT_NAMES.join(', ')}`);
    }
    for (const n of list) this.on.add(n as DefectName);
  }

  /** Switches defects off; unknown names are a usage error. */
  disable(names: Iterable<string>): void {
    const list = [...names];
    const unknown = list.filter((n) => !isDefectName(n));
    if (unknown.length > 0) throw new HarnessError('E_USAGE', `unknown defect ${unknown.map((n) => `"${n}"`).join(', ')}`);
    for (const n of list) this.on.delete(n as DefectName);
  }

  /** The defects switched on, in catalogue order. */
  list(): DefectName[] {
    return DEFECT_NAMES.filter((n) => this.on.has(n));
  }
}
