/**
 * `svc-harness load` on the embedded mock for 200 answers (1 s at most), its throughput gate out of any machine's
 * reach: a gate that breaks, for the tests of what a broken gate does. Append the rest of the command.
 */
export const GATE_BREAKING_LOAD = ['load', '--agencies', '2', '--duration', '1', '--requests', '200', '--threshold', 'rps>=100000000'];
