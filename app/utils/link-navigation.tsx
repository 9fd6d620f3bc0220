import { PrefetchPageLinks, useNavigate } from '@remix-run/react';
import { useCallback, useState, type FocusEvent, type MouseEvent } from 'react';

/**
 * Regions full of links (the public header and footer, a page of parcel cards) render plain
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

/**
 * Prefetches the page a pointer or the keyboard focus rests on (what `<Link prefetch="intent">`
 * does), for a region of plain links: spread `handlers` on the region and render `links`.
 */
export function useLinkPrefetch() {
  const [page, setPage] = useState<string | null>(null);
  const onIntent = useCallback((event: MouseEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    const href = clientLink(event)?.getAttribute('href');
    if (href?.startsWith('/')) setPage(href);
  }, []);
  return {
    handlers: { onMouseOver: onIntent, onFocus: onIntent },
    links: page ? <PrefetchPageLinks page={page} /> : null,
  };
}
