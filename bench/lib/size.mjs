// The benches' one size knob: CTRLRUN_BENCH_SIZE=tiny makes every bench finish in seconds (the
// test that runs each bench once, so none rots, sets it); unset or `full`, the figures' sizes.
// Anything else is refused, so a typo never passes for a measurement.
const SIZES = ['full', 'tiny'];
const given = process.env.CTRLRUN_BENCH_SIZE ?? 'full';
if (!SIZES.includes(given)) throw new Error(`CTRLRUN_BENCH_SIZE=${given}: the sizes are ${SIZES.join(' and ')}`);

/** Whether this run is the tiny one (a smoke run: it shows the bench runs, its figures mean nothing). */
export const tiny = given === 'tiny';

/** `full` at the figures' size, `small` at the tiny one. */
export const sized = (full, small) => (tiny ? small : full);
