import { describe, expect, it } from 'vitest';
import { findMethodBySegment, methodPath, methodUrlDisplay } from './method-url';

const METHODS = [
  { id: 7, sysname: 'card' },
  { id: 9, sysname: 'pix' },
];

describe('deposit method pages (spec §2 /cashier/deposit/{sysname}, §3 paymentMethodsUrlDisplay default sysname)', () => {
  it('names a method page by sysname by default', () => {
    expect(methodUrlDisplay(undefined)).toBe('sysname');
    expect(methodPath(METHODS[0]!, 'sysname')).toBe('/cashier/deposit/card');
    expect(findMethodBySegment(METHODS, 'pix', 'sysname')?.id).toBe(9);
  });
  it('names it by id when configured', () => {
    expect(methodUrlDisplay('id')).toBe('id');
    expect(methodPath(METHODS[1]!, 'id')).toBe('/cashier/deposit/9');
    expect(findMethodBySegment(METHODS, '7', 'id')?.sysname).toBe('card');
    expect(findMethodBySegment(METHODS, 'card', 'id')).toBeUndefined();
  });
  it('finds nothing for an unknown or missing segment', () => {
    expect(findMethodBySegment(METHODS, 'sample', 'sysname')).toBeUndefined();
    expect(findMethodBySegment(METHODS, undefined, 'sysname')).toBeUndefined();
  });
});
