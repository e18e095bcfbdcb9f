import type { Profile } from '../../profile/index.js';
import type { Scenario } from '../../scenario/types.js';
import { compileJourney, type Journey } from './scenario-requests.js';

/** What the autocannon part of a load sends: the usable journeys, or signed searches of one product. */
export interface LoadPlan {
  mode: 'search' | 'scenarios';
  /** Journeys with at least one step that can be sent. */
  journeys: Journey[];
  /** The product of the signed searches and of the paced push. */
  product: string;
  /** What the plan had to leave out or fall back on, for the report. */
  notes: string[];
}

/**
 * Compiles the scenarios into journeys and picks the mode: scenarios when any
 * journey is usable and no search was asked for, else signed searches.
 */
export function planLoad(
  profile: Profile,
  o: { scenarios?: Scenario[] | undefined; search?: { product: string } | undefined; connections: number },
  agencyCount: number,
): LoadPlan {
  const notes: string[] = [];
  const compiled = (o.scenarios ?? []).map((s) => compileJourney(s, profile));
  for (const j of compiled) for (const s of j.skipped) notes.push(`scenario ${j.name}: ${s}`);
  const journeys = compiled.filter((j) => j.steps.length > 0);
  const mode = o.search || journeys.length === 0 ? 'search' : 'scenarios';
  const product = o.search?.product ?? profile.products[0] ?? 'flights';
  if (!o.search && journeys.length === 0 && o.connections > 0) notes.push(`no usable scenario: autocannon sent signed ${product} searches`);
  if (o.connections > 0 && o.connections < agencyCount)
    notes.push(`${o.connections} connections for ${agencyCount} agencies: only the first ${o.connections} agencies got autocannon load`);
  return { mode, journeys, product, notes };
}
