declare module 'zipcode-to-timezone' {
  /** The IANA zone of a US ZIP code (five digits), or null when it is not known. */
  export function lookup(zipcode: string): string | null;
}
