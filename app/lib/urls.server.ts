import { env } from './env.server';

/** An absolute link to a page of the site, for e-mails, labels and webhooks (PUBLIC_URL). */
export function publicUrl(pathname: string): string {
  const base = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  return new URL(pathname, base).toString();
}

export function trackingUrl(trackingNumber: string): string {
  return publicUrl(`/track?${new URLSearchParams({ number: trackingNumber })}`);
}
