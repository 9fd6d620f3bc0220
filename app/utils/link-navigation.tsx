import { useNavigate } from '@remix-run/react';
import { useCallback, type MouseEvent } from 'react';

/**
 * Regions full of links (a page of parcel cards) render plain
 * `<a href data-client-link data-discover="true">` instead of one router <Link> each: every <Link>
 * costs router hooks on every server render, and a hundred of them add up. `data-discover` lets
 * Remix load the routes they lead to ahead of a click, as it does for a <Link>. Without
 * JavaScript the links just work.
 */
function clientLink(event: { target: EventTarget }): HTMLAnchorElement | null {
  return event.target instanceof Element
    ? event.target.closest<HTMLAnchorElement>('a[data-client-link]')
    : null;
}

/**
 * One click handler for such a region: with JavaScript, a plain left click on one of its links
 * becomes a client-side navigation, and the <details> menu the link was in closes.
 */
export function useLinkNavigation({ preventScrollReset = false } = {}) {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      const link = clientLink(event);
      if (!link || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      link.closest('details')?.removeAttribute('open');
      navigate(link.getAttribute('href')!, { preventScrollReset });
    },
    [navigate, preventScrollReset],
  );
}
