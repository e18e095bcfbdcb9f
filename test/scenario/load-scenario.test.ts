import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { loadScenarioFile, loadScenarios, parseScenario } from '../../src/scenario/index.js';

const VALID = `
name: ok
description: A valid scenario.
agency: any-with-product
product: flights
steps:
  - search:
      criteria: { adults: 1 }
    save: { quote: cheapest.quote_token, price: cheapest.price }
  - set: { key: "{{unique}}" }
  - book: { quote: "{{quote}}", idempotency_key: "{{key}}" }
    as: first
    expect: { status: [200, 201], replayed: false, balance_delta: "-{{price}}", fields: { price: { eq: "{{price}}" } } }
  - repeat:
      count: 3
      concurrent: true
      steps:
        - book: { quote: "{{quote}}", idempotency_key: "{{key}}" }
          expect: { identical_to: first }
    expect: { balance_delta: 0 }
  - wait: { s: "{{profile.quotes.lifetime_s}}" }
  - balance:
    expect: { code: insufficient_funds }
`;

function problemsOf(text: string): string {
  try {
    parseScenario(text, 'x.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).code).toBe('E_SCENARIO_INVALID');
    return (err as Error).message;
  }
  throw new Error('expected the scenario to be refused');
}

const base = (steps: string, top = 'product: flights'): string => `name: bad\n${top}\nsteps:\n${steps}`;

describe('scenario loader', () => {
  it('accepts a valid scenario and normalises its steps', () => {
    const s = parseScenario(VALID, 'ok.yaml');
    expect(s).toMatchObject({ name: 'ok', agency: 'any-with-product', product: 'flights' });
    expect(s.steps.map((st) => st.action)).toEqual(['search', 'set', 'book', 'repeat', 'wait', 'balance']);
    expect(s.steps[3]!.steps![0]!.at).toBe('steps[3].repeat.steps[0]');
    expect(s.steps[4]!.params).toEqual({ s: '{{profile.quotes.lifetime_s}}' });
  });

  it('names the file and step of each problem', () => {
    const cases: [string, string][] = [
      [base('  - boook: {}'), 'x.yaml: steps[0].boook: unknown action or key'],
      [base('  - {}'), 'x.yaml: steps[0]: has no action'],
      [base('  - account:\n    balance:'), 'steps[0]: has 2 actions (account, balance)'],
      [base('  - book: {}'), 'steps[0].book: needs "quote"'],
      [base('  - search: { colour: red }'), 'steps[0].search.colour: unknown parameter'],
      [base('  - search: { product: boats }'), 'steps[0].search.product: unknown product "boats"'],
      [base('  - search:', 'agency: 0'), 'steps[0].search: names no product, and the scenario has none'],
      [base('  - book: { quote: "{{nothing}}" }'), 'steps[0].book: {{nothing}} is used before any step saves it'],
      [base('  - balance:\n    expect: { code: quote_expird }'), 'steps[0].expect.code: unknown error key "quote_expird"'],
      [base('  - balance:\n    expect: { status: 999 }'), 'steps[0].expect.status: must be an HTTP status'],
      [base('  - balance:\n    expect: { identical_to: nope }'), 'steps[0].expect.identical_to: names no response kept earlier'],
      [base('  - balance:\n    expect: { colour: red }'), 'steps[0].expect.colour: unknown expectation'],
      [base('  - balance:\n    expect: { balance_delta: [1] }'), 'steps[0].expect.balance_delta: must be an integer or an expression'],
      [base('  - wait: {}'), 'steps[0].wait: needs exactly one of "ms" or "s"'],
      [base('  - rest: wallet'), 'steps[0].rest.buckets: must be read, write or a list of them, got "wallet"'],
      [base('  - rest: []'), 'steps[0].rest.buckets: must be read, write or a list of them'],
      [base('  - rest: {}'), 'steps[0].rest: needs "buckets"'],
      [base('  - repeat: { count: 0, steps: [ { balance: null } ] }'), 'steps[0].repeat.count: must be an integer from 1 to 1000'],
      [base('  - repeat: { count: 2, steps: [] }'), 'steps[0].repeat.steps: must be a non-empty list of steps'],
      [base('  - repeat: { count: 2, steps: [ { balance: null } ] }\n    expect: { status: 200 }'), 'a repeat can only expect balance_delta'],
      [base('  - balance:\n    save: { unique: balance }'), 'steps[0].save.unique: is not a valid value name'],
      [base('  - balance:', 'agency: any-with-product'), 'agency: "any-with-product" needs a scenario "product"'],
      [base('  - balance:', 'product: flights\ncolour: red'), 'colour: unknown key'],
      ['name: bad\nsteps: []', 'steps: must be a non-empty list of steps'],
      ['name: [oops', 'x.yaml: YAML'],
    ];
    for (const [text, message] of cases) expect(problemsOf(text), text).toContain(message);
  });

  it('lists every problem of a file in one error', () => {
    const msg = problemsOf(base('  - boook: {}\n  - book: {}'));
    expect(msg).toContain('steps[0].boook');
    expect(msg).toContain('steps[1].book: needs "quote"');
  });

  it('reads files, refuses an unreadable one and duplicate names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scn-'));
    await writeFile(join(dir, 'a.yaml'), VALID);
    await writeFile(join(dir, 'b.yaml'), VALID);
    await expect(loadScenarioFile(join(dir, 'a.yaml'))).resolves.toMatchObject({ name: 'ok' });
    await expect(loadScenarioFile(join(dir, 'missing.yaml'))).rejects.toMatchObject({ code: 'E_FILE_UNREADABLE' });
    await expect(loadScenarios({ dir })).rejects.toThrow(/scenario name "ok" is used by both/);
  });

  it('loads every shipped scenario', async () => {
    const names = (await loadScenarios()).map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'happy-flights',
        'happy-transfers',
        'happy-activities',
        'happy-cars',
        'book-cancel-refund',
        'quote-expiry',
        'failed-booking',
        'retry-storm',
      ]),
    );
  });
});
