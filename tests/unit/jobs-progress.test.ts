import { describe, expect, it } from 'vitest';
import { ProgressThrottle } from '../../functions/jobs/progress-throttle.ts';

function throttle() {
  const written: number[] = [];
  let now = 0;
  const subject = new ProgressThrottle(
    (progress) => written.push(progress),
    () => now,
  );
  return { written, subject, advance: (ms: number) => (now += ms) };
}

describe('ProgressThrottle', () => {
  it('writes steps of 5 % or more at once', () => {
    const { written, subject } = throttle();
    subject.report(0.05);
    subject.report(0.1);
    subject.report(0.5);
    expect(written).toEqual([0.05, 0.1, 0.5]);
  });

  it('drops small steps within 100 ms, then writes the next one after', () => {
    const { written, subject, advance } = throttle();
    subject.report(0.05);
    subject.report(0.06);
    advance(99);
    subject.report(0.07);
    advance(1);
    subject.report(0.08);
    expect(written).toEqual([0.05, 0.08]);
  });

  it('always writes the end, never goes backwards and ignores values outside 0..1', () => {
    const { written, subject } = throttle();
    subject.report(0.5);
    subject.report(0.99);
    subject.report(0.2);
    subject.report(Number.NaN);
    subject.report(1);
    subject.report(7);
    expect(written).toEqual([0.5, 0.99, 1]);
  });
});
