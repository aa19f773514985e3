// Preloaded with `node --import` (through NODE_OPTIONS) into a server or an owner's command that
// must see another time than the machine's: the wall clock, as `Date` gives it, moves by
// TEST_CLOCK_SHIFT_MS milliseconds (negative: into the past). Timers and intervals are untouched.
// The upgrade test uses it to open a state written on a known day as if shortly after, so that
// what the state keeps for a day (idempotency records, jobs) or an hour (access tokens) has not
// expired whenever the test runs. Plain JavaScript: the compiled server runs without a loader.
const shift = Number(process.env.TEST_CLOCK_SHIFT_MS ?? '0');

if (!Number.isFinite(shift)) throw new Error(`TEST_CLOCK_SHIFT_MS is not a number: ${process.env.TEST_CLOCK_SHIFT_MS}`);

if (shift !== 0) {
  const RealDate = globalThis.Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...args);
    }

    static now() {
      return RealDate.now() + shift;
    }
  }
  globalThis.Date = ShiftedDate;
}
