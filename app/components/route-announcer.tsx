import { useLocation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

/**
 * A client-side navigation changes the page without the browser announcing it: this says the new
 * page's title in a polite live region, as a full page load would have.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // After the new route's <title> is in place.
    const timer = setTimeout(() => setMessage(document.title), 100);
    return () => clearTimeout(timer);
  }, [pathname]);
  return (
    <div aria-live="polite" aria-atomic="true" className="sr-only" data-route-announcer="">
      {message}
    </div>
  );
}
