import { createContext, useContext } from 'react';

/** This request's CSP nonce, for the few inline scripts the document carries. */
const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
