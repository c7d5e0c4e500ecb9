/**
 * Deposit method addresses (spec §2: /cashier/deposit/{sysname}; spec §3 paymentMethodsUrlDisplay,
 * default sysname): which part of a method names its page.
 */
export type MethodUrlDisplay = 'sysname' | 'id';

export function methodUrlDisplay(value: unknown): MethodUrlDisplay {
  return value === 'id' ? 'id' : 'sysname';
}

export function methodSegment(method: { id: number; sysname: string }, display: MethodUrlDisplay): string {
  return display === 'id' ? String(method.id) : method.sysname;
}

export function methodPath(method: { id: number; sysname: string }, display: MethodUrlDisplay): string {
  return `/cashier/deposit/${encodeURIComponent(methodSegment(method, display))}`;
}

/** The method a page address names, if the player may use it. */
export function findMethodBySegment<T extends { id: number; sysname: string }>(
  methods: readonly T[],
  segment: string | undefined,
  display: MethodUrlDisplay,
): T | undefined {
  if (!segment) return undefined;
  return methods.find((method) => methodSegment(method, display) === segment);
}
