import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import { renderHtml } from '../../src/report/render-html.js';
import { differingPairs, firstDifferingByte, jsonVerdict, lineDiff } from '../../src/report/_internal/body-diff.js';
import { sampleRun } from './fixtures/sample-run.js';

function sectionAt(page: string, id: string): number {
  return page.indexOf(`<section id="${id}">`);
}

describe('a failing report opens on its failures', () => {
  const result = sampleRun();
  const page = renderHtml(result);

  it('orders banner, failures, areas, charts, then every case', () => {
    const order = [
      page.indexOf('<section class="banner">'),
      sectionAt(page, 'failures'),
      sectionAt(page, 'areas'),
      sectionAt(page, 'rate-limit'),
      sectionAt(page, 'webhooks'),
      sectionAt(page, 'cases'),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('shows each failing case with its broken promise, message, evidence lines and replay command, most urgent first', () => {
    const failures = page.slice(sectionAt(page, 'failures'), sectionAt(page, 'areas'));
    const ids = [...failures.matchAll(/<article class="failure" id="failure-([^"]+)">/g)].map((m) => m[1]);
    expect(ids).toEqual(['AUTH-02', 'RL-03', 'property-idempotency-model', 'IDEM-02']);
    expect(failures).toContain('Promise broken:</span> SPEC §8.3 rolling one-minute window');
    expect(failures).toContain('limit + 1 writes admitted inside one window (21 of limit 20).');
    expect(failures).toMatch(/POST http:\/\/[^ ]+\/v1\/flights\/quotes → 201/);
    expect(failures).toContain('<code class="replay">svc-harness run --only property:idempotency-model');
    expect(failures).toContain('Not recorded: x-999999');
  });

  it('gives every case an anchor, and area cards link their failing cases to their cards', () => {
    for (const c of result.cases) expect(page).toContain(`id="case-${c.id.replace(/[^A-Za-z0-9_-]/g, '-')}"`);
    const areas = page.slice(sectionAt(page, 'areas'), sectionAt(page, 'rate-limit'));
    expect(areas).toMatch(/<a href="#failure-RL-03" title="[^"]*"><span class="badge badge-fail">FAIL<\/span> RL-03<\/a>/);
    expect(areas).toContain('href="#failure-IDEM-02"');
    expect(areas).not.toContain('href="#failure-RL-01"');
    for (const [, target] of page.matchAll(/href="#([^"]+)"/g)) expect(page, target).toContain(`id="${target}"`);
  });

  it('leaves the failures section out of a passing run', () => {
    const passing = renderHtml(sampleRun({ verdict: 'PASS', cases: result.cases.filter((c) => c.verdict === 'PASS') }));
    expect(passing).not.toContain('<section id="failures">');
  });
});

function post(id: string, body: string, label: string): Exchange {
  return {
    id,
    label,
    request: { method: 'POST', url: 'http://t.example/v1/flights/bookings', headers: { 'idempotency-key': 'k1' }, body: '{"quote_token":"q1"}' },
    response: { status: 201, headers: {}, body },
    startedAt: 0,
    durationMs: 3,
  };
}

describe('a byte-identity failure shows the bytes', () => {
  const original = post('x-1', '{"booking_id":"bk_1","price":{"amount":22556,"currency":"EUR"}}', 'ID-02 original booking');
  const replay = post('x-2', '{\n  "booking_id": "bk_1",\n  "price": {\n    "amount": 22556,\n    "currency": "EUR"\n  }\n}', 'ID-02 same key, same body');

  it('finds the original of a replay in the run even when the case names only the replay, and never pairs reads', () => {
    expect(differingPairs([replay], [original, replay]).map((p) => [p.first.id, p.second.id])).toEqual([['x-1', 'x-2']]);
    const read = (id: string, body: string): Exchange => ({
      ...post(id, body, ''),
      request: { method: 'GET', url: 'http://t.example/v1/wallet/balance', headers: {} },
    });
    expect(differingPairs([read('r1', '{"a":1}'), read('r2', '{"a":2}')])).toEqual([]);
  });

  it('says where and how the bodies differ', () => {
    expect(firstDifferingByte(original.response!.body, replay.response!.body)).toBe(1);
    expect(jsonVerdict(original.response!.body, replay.response!.body)).toMatch(/same JSON value/);
    expect(jsonVerdict('{"a":{"b":1}}', '{"a":{"b":2}}')).toBe('The JSON values differ: a.b: 1 → 2.');
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
    ]);
  });

  it('renders both raw bodies as received and a diff in the failure card', () => {
    const base = sampleRun();
    const kase = {
      ...base.cases[0]!,
      id: 'ID-02',
      area: 'idempotency' as const,
      verdict: 'FAIL' as const,
      message: 'its body differs from the original at byte 1',
      evidence: ['x-2'],
    };
    const page = renderHtml(sampleRun({ cases: [kase], exchanges: [original, replay] }));
    const card = page.slice(page.indexOf('<article class="failure" id="failure-ID-02">'), page.indexOf('</article>'));
    // Raw, not reformatted: the compact original stays on one line, the replay keeps its line breaks.
    expect(card).toContain(
      '<pre>{&quot;booking_id&quot;:&quot;bk_1&quot;,&quot;price&quot;:{&quot;amount&quot;:22556,&quot;currency&quot;:&quot;EUR&quot;}}</pre>',
    );
    expect(card).toContain('<pre>{\n  &quot;booking_id&quot;: &quot;bk_1&quot;,\n');
    expect(card).toContain('Original (ID-02 original booking) · x-1 · HTTP 201 · 63 bytes, as received');
    expect(card).toContain('First difference at byte 1');
    expect(card).toContain('<span class="ddel">- {&quot;booking_id&quot;:&quot;bk_1&quot;');
    expect(card).toContain('<span class="dadd">+   &quot;booking_id&quot;: &quot;bk_1&quot;,</span>');
  });
});
