/**
 * How long an in-process load lasts when it only has to take its agencies' buckets past their limits (40 reads and 6
 * writes an agency in these tests): 300 answers, 15 s at most. That is past the limits however slowly the machine
 * serves them (a 1.5 s load beside two CPU hogs once sent too few, and limit-plus-one escaped), and well under a second
 * on a quiet machine. A load of fixed seconds sends as many requests as the machine allows, and takes every CPU it finds.
 */
export const PAST_THE_LIMITS = { durationS: 15, maxRequests: 300 };
