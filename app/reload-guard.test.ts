import { describe, expect, it } from 'vitest';
import { RELOAD_GUARD_TTL_MS, shouldReload } from './reload-guard';

describe('reload guard (spec §9: time-to-live 10000 ms)', () => {
  it('reloads the first time and again only after the time-to-live has passed', () => {
    expect(RELOAD_GUARD_TTL_MS).toBe(10_000);
    expect(shouldReload(null, 5_000)).toBe(true);
    expect(shouldReload(1_000, 1_000 + RELOAD_GUARD_TTL_MS)).toBe(false);
    expect(shouldReload(1_000, 1_001 + RELOAD_GUARD_TTL_MS)).toBe(true);
  });
});
