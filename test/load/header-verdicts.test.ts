import { describe, expect, it } from 'vitest';
import { judgeHeaders } from '../../src/load/judge/load-verdicts.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';

/** A recorder's log of one bucket, its answers' headers tallied as the senders tally them. */
function tallied(answers: Array<[status: number, limit?: number, remaining?: number]>) {
  const recorder = new LoadRecorder({ rateLimitedStatus: 429 });
  answers.forEach(([status, limit, remaining], i) =>
    recorder.headers(
      { agency: 'agency-a', bucket: 'read', sentAt: 1_000 + i, status },
      limit === undefined && remaining === undefined ? undefined : { limit, remaining },
    ),
  );
  return recorder.log('agency-a', 'read');
}

describe('rate-limit headers judged under load (RL-07, answer by answer)', () => {
  it('passes a limit and a remaining that agree with the agency on every 2xx and 429', () => {
    const v = judgeHeaders(
      tallied([
        [200, 3, 2],
        [200, 3, 1],
        [200, 3, 0],
        [429, 3, 0],
        [201, 3, 1],
      ]),
      3,
    );
    expect(v).toMatchObject({ id: 'load:headers:agency-a:read', kind: 'headers', verdict: 'PASS', details: { judged: 5 } });
  });

  it('fails a Limit of 0 on admitted answers (a target announcing 0 and 0 passed)', () => {
    const v = judgeHeaders(
      tallied([
        [200, 0, 0],
        [200, 0, 0],
        [200, 3, 2],
      ]),
      3,
    );
    expect(v.verdict).toBe('FAIL');
    expect(v.message).toContain("2 answer(s) said X-RateLimit-Limit 0, the agency's read limit is 3");
    // Remaining 0 of a Limit 0 is not below it either.
    expect(v.message).toContain('2 admitted answer(s) said X-RateLimit-Remaining was not below X-RateLimit-Limit');
  });

  it('fails a 429 that says room remains, and answers without the headers', () => {
    expect(
      judgeHeaders(
        tallied([
          [200, 3, 2],
          [429, 3, 1],
        ]),
        3,
      ).message,
    ).toContain('1 429(s) said X-RateLimit-Remaining was not 0');
    const missing = judgeHeaders(tallied([[200, 3, 2], [200], [200]]), 3);
    expect(missing).toMatchObject({ verdict: 'FAIL', details: { missing: 2 } });
    expect(missing.message).toContain('2 of 3 answers lacked X-RateLimit-Limit or X-RateLimit-Remaining');
  });

  it('leaves out answers a service may give before its limiter (4xx, 5xx), and says SKIP with none left', () => {
    const log = tallied([[400], [401], [502], [404, 0, 0]]);
    expect(judgeHeaders(log, 3)).toMatchObject({ verdict: 'SKIP', details: { judged: 0 } });
  });

  it('names the headers as the profile does, and keeps its memory bounded whatever Limit values come', () => {
    const many = tallied(Array.from({ length: 100 }, (_, i): [number, number, number] => [200, i + 10, 0]));
    const v = judgeHeaders(many, 3, { limit: 'RateLimit-Limit', remaining: 'RateLimit-Remaining' });
    expect(Object.keys(many.headers!.limits)).toHaveLength(17);
    expect(many.headers!.limits.other).toBe(84);
    expect(v.message).toContain('said RateLimit-Limit 10,');
  });
});
