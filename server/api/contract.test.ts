/** The contract and the registry name the same methods, so neither can drift from the other. */
import { describe, expect, it } from 'vitest';
import { API_CONTRACT, METHOD_VERBS, SERVICE_CONTRACTS } from '#common/contract';
import { SELF_EXCLUSION_OPTIONS, TIMEOUT_OPTIONS } from '#common/contract/responsible-gaming';
import { SELF_EXCLUSION_DURATIONS, TIMEOUT_DURATIONS } from '../modules/responsible-gaming';
import { defineMethod, methodKey } from './define';
import { METHOD_REGISTRY } from './registry';

const contractNames = Object.keys(API_CONTRACT);

describe('the product API contract', () => {
  it('has a method in the registry for every entry, and an entry for every registered method', () => {
    const registered = [...METHOD_REGISTRY.values()].map((method) => method.name);
    expect([...registered].sort()).toEqual([...contractNames].sort());
    expect(METHOD_REGISTRY.size).toBe(contractNames.length);
  });

  it('declares each wire name once, even ignoring case (the dispatcher matches case-insensitively)', () => {
    const declared = SERVICE_CONTRACTS.flatMap((service) => Object.keys(service));
    expect(declared).toHaveLength(contractNames.length);
    expect(new Set(declared.map((name) => name.toLowerCase())).size).toBe(declared.length);
  });

  it('gives the registry the contract entry of each method', () => {
    for (const name of contractNames) {
      const [service = '', method = ''] = name.split(/\.(.*)/);
      const registered = METHOD_REGISTRY.get(methodKey(service, method));
      const entry = API_CONTRACT[name as keyof typeof API_CONTRACT];
      expect(registered?.params, name).toBe(entry.params);
      expect(registered?.requiresUser, name).toBe(entry.requiresUser);
      expect(registered?.isAvailableWhenClosed, name).toBe(entry.isAvailableWhenClosed);
      expect(registered?.isCrossSiteRefusedOnGet, name).toBe(entry.isCrossSiteRefusedOnGet);
      expect(registered?.verbs, name).toEqual(METHOD_VERBS[name as keyof typeof METHOD_VERBS]);
    }
  });

  it('does not compile a handler that differs from its contract entry', () => {
    // @ts-expect-error: account.getBalance answers the balances, not a number
    const wrongAnswer = () => defineMethod({ name: 'account.getBalance', handler: async () => 42 });
    // @ts-expect-error: no such method in the contract
    const unknownMethod = () => defineMethod({ name: 'account.nosuchmethod', handler: async () => 1 });
    // @ts-expect-error: storage.set takes key and value, no keys
    const wrongParams = () => defineMethod({ name: 'storage.set', handler: async (_ctx, params) => (params.keys ? 1 : 1) });
    expect([wrongAnswer, unknownMethod, wrongParams]).toHaveLength(3);
  });

  it('offers the durations the responsible-gaming rules know', () => {
    expect([...TIMEOUT_OPTIONS].sort()).toEqual(Object.keys(TIMEOUT_DURATIONS).sort());
    expect([...SELF_EXCLUSION_OPTIONS].sort()).toEqual(Object.keys(SELF_EXCLUSION_DURATIONS).sort());
  });
});
