import { useEffect, useRef, useState } from 'react';
import type { Toast } from '~/lib/flash.server';

const STYLES: Record<Toast['type'], string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-blue-300 bg-blue-50 text-blue-900',
};

/**
 * The toast region is rendered by the server, so a flash shows with JavaScript off too, and it
 * closes without JavaScript: the toast is an open `<details>` whose summary is the ×, and a closed
 * one is hidden. Alt+T moves focus to the region (an access key, so it works on the public pages,
 * which run no JavaScript). With JavaScript the toast also dismisses itself.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const regionRef = useRef<HTMLElement>(null);
  const [visible, setVisible] = useState<Toast | null>(toast);

  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), toast.type === 'error' ? 10_000 : 6_000);
    return () => clearTimeout(timer);
  }, [toast]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey && event.key.toLowerCase() === 't') {
        event.preventDefault();
        regionRef.current?.focus();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section
      ref={regionRef}
      role="status"
      aria-live="polite"
      aria-label="Notifications"
      accessKey="t"
      tabIndex={-1}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col gap-2 p-3 sm:inset-x-auto sm:bottom-4 sm:right-4 sm:w-full sm:max-w-sm sm:p-0"
    >
      {visible ? (
        <details
          open
          className={`pointer-events-auto relative rounded-lg border p-4 pr-12 shadow-lg [&:not([open])]:hidden ${STYLES[visible.type]}`}
          data-toast-type={visible.type}
        >
          <summary
            className="absolute right-2 top-2 list-none rounded px-2 text-xl leading-none hover:bg-black/5 [&::-webkit-details-marker]:hidden"
            onClick={(event) => {
              event.preventDefault();
              setVisible(null);
            }}
            aria-label="Dismiss notification"
          >
            ×
          </summary>
          {/* Errors are announced at once; other toasts wait their turn in the polite region. */}
          <div role={visible.type === 'error' ? 'alert' : undefined}>
            <p className="font-semibold">{visible.title}</p>
            {visible.description ? <p className="mt-1 text-sm">{visible.description}</p> : null}
          </div>
        </details>
      ) : null}
    </section>
  );
}
