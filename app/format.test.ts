import { describe, expect, it } from 'vitest';
import { DATE_TIME_JOINER, formatDate, formatDateTime, formatElapsed, formatTime } from './format';

describe('date display (spec §9: dd.mm.yyyy, hours:minutes, default joiner "a las")', () => {
  const at = new Date(2026, 0, 5, 7, 3);
  it('pads day, month, hours and minutes', () => {
    expect(formatDate(at)).toBe('05.01.2026');
    expect(formatTime(at)).toBe('07:03');
  });
  it('joins date and time with the default joiner unless another is given', () => {
    expect(DATE_TIME_JOINER).toBe('a las');
    expect(formatDateTime(at)).toBe('05.01.2026 a las 07:03');
    expect(formatDateTime(at, 'alle')).toBe('05.01.2026 alle 07:03');
  });
  it('shows elapsed time as h:mm:ss', () => {
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    expect(formatElapsed(-5)).toBe('0:00:00');
  });
});
