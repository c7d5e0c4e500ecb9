/**
 * Whether this component has hydrated: false in the server's render and the first client render,
 * true once its effects ran. A control the server renders before its handler exists (a game's
 * chunk still loading) stays disabled until then, so a press is never silently lost: the button
 * says it is not ready, and takes the press as soon as it is.
 */
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return isHydrated;
}
