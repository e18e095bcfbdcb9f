import { unanswered, type RecordedRequest } from '../../src/load/measure/load-recorder.js';

/**
 * A request as a sender hands it to the recorder, what a test leaves out
 * filled in: GET, no answer (status 0, no latency) unless given, no
 * rate-limit header read, no error code, not expected.
 */
export function req(
  r: Pick<RecordedRequest, 'op' | 'agency' | 'bucket' | 'sentAt' | 'receivedAt'> & Partial<Omit<RecordedRequest, 'outcome'>>,
): Omit<RecordedRequest, 'outcome'> {
  return { ...unanswered({ method: 'GET', ...r }), ...r };
}
