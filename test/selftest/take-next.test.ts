import { describe, expect, it } from 'vitest';
import { takeNext } from '../../src/selftest/run-selftest.js';

/* The self-test's workers share one process: a run of the whole suite starts only while no other runs. */
describe('the next job of a self-test worker', () => {
  const whole = (j: string): boolean => j.startsWith('whole');

  it('takes the first job when no whole run is running, whole or not', () => {
    const pending = ['whole-clean', 'whole-er01', 'focused-a'];
    expect(takeNext(pending, 0, whole)).toBe('whole-clean');
    expect(pending).toEqual(['whole-er01', 'focused-a']);
  });

  it('passes over the whole runs while one runs, to the first focused job', () => {
    const pending = ['whole-er01', 'whole-sc01', 'focused-a', 'focused-b'];
    expect(takeNext(pending, 1, whole)).toBe('focused-a');
    expect(pending).toEqual(['whole-er01', 'whole-sc01', 'focused-b']);
  });

  it('takes nothing while one whole run runs and only whole runs are left (the worker waits), nor from an empty list', () => {
    const pending = ['whole-er01'];
    expect(takeNext(pending, 1, whole)).toBeUndefined();
    expect(pending).toEqual(['whole-er01']);
    expect(takeNext([], 0, whole)).toBeUndefined();
  });
});
