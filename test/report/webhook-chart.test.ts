import { describe, expect, it } from 'vitest';
import type { WebhookPoint } from '../../src/results/model.js';
import { renderWebhookTimeline } from '../../src/report/html/webhook-chart.js';

const at = (s: number) => 1_700_000_000_000 + s * 1000;

/** Status labels (their x and text) and marks (their centre x) of each row of the chart. */
function rows(svg: string): Array<{ labels: Array<{ x: number; text: string }>; marks: number[] }> {
  return [...svg.matchAll(/<g class="webhook-row">([\s\S]*?)<\/g>(?=\n|<\/svg>|$)/g)].map((m) => ({
    labels: [...m[1]!.matchAll(/<text x="([\d.]+)" y="[\d.]+" style="font-size:10px">(\d+)<\/text>/g)].map((l) => ({ x: Number(l[1]), text: l[2]! })),
    marks: [...m[1]!.matchAll(/<circle cx="([\d.]+)"/g)].map((c) => Number(c[1])),
  }));
}

describe('webhook attempt timeline', () => {
  it("draws no status label where the next attempt's mark would cover it", () => {
    const points: WebhookPoint[] = [
      { at: at(0), eventId: 'evt_a', attempt: 1, status: 500, scheme: 'service' },
      { at: at(1), eventId: 'evt_a', attempt: 2, status: 500, scheme: 'service' },
      { at: at(60), eventId: 'evt_a', attempt: 3, status: 200, scheme: 'service' },
      { at: at(150), eventId: 'evt_b', attempt: 1, status: 200, scheme: 'hotel' },
    ];
    const drawn = rows(renderWebhookTimeline(points));
    expect(drawn.map((r) => r.marks.length)).toEqual([3, 1]);
    // Attempt 1 is a second before attempt 2: its label would sit under mark 2, so only the colour and tooltip say 500.
    expect(drawn[0]!.labels.map((l) => l.text)).toEqual(['500', '200']);
    for (const r of drawn) {
      for (const l of r.labels) {
        // A three-digit label at 10px spans about 18 units; a mark has a radius of 10.
        expect(r.marks.filter((cx) => l.x + 18 > cx - 10 && l.x < cx + 10)).toEqual([]);
      }
    }
    expect(renderWebhookTimeline(points)).toContain('evt_a attempt 1 at +0 s: HTTP 500');
  });
});
