import { describe, expect, it } from 'vitest';
import { missingBetween } from './notifications';

describe('notifications', () => {
  it('missingBetween finds the lost ids between two delivered ones', () => {
    expect(missingBetween('12–13', '11', '14')).toBe('12–13');
    expect(missingBetween('12–13, 20', '19', '21')).toBe('20');
    expect(missingBetween('12–13', '14', '15')).toBeUndefined();
    expect(missingBetween('s1_12–s1_13', 's1_11', 's1_14')).toBe('s1_12–s1_13');
    expect(missingBetween('12', 'abc', '14')).toBeUndefined();
  });
});
