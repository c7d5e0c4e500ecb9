/**
 * This page's Content-Security-Policy nonce during the server render (issue 11), for the inline
 * scripts the document renders. The browser hides a nonce from the page once it is parsed, and
 * scripts added after hydration are allowed by 'strict-dynamic', so in the browser it is undefined.
 */
import { createContext, useContext } from 'react';

export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
