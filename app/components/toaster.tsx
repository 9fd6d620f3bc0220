import { useEffect, useRef, useState } from 'react';
import type { Toast } from '~/services/flash.server';

const STYLES: Record<Toast['type'], string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-blue-300 bg-blue-50 text-blue-900',
};

/**
 * The toast region is rendered by the server, so a flash shows with JavaScript off too.
 * With JavaScript it auto-dismisses, and Alt+T moves focus to it.
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
      tabIndex={-1}
      className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-full max-w-sm flex-col gap-2 px-4 sm:px-0"
    >
      {visible ? (
        <div
          className={`pointer-events-auto rounded-lg border p-4 shadow-lg ${STYLES[visible.type]}`}
          data-toast-type={visible.type}
          // Errors are announced at once; other toasts wait their turn in the polite region.
          role={visible.type === 'error' ? 'alert' : undefined}
        >
          <div className="flex items-start justify-between gap-3">
            <div>
              <p className="font-semibold">{visible.title}</p>
              {visible.description ? <p className="mt-1 text-sm">{visible.description}</p> : null}
            </div>
            <button
              type="button"
              className="rounded px-1 text-lg leading-none opacity-70 hover:opacity-100"
              onClick={() => setVisible(null)}
              aria-label="Dismiss notification"
            >
              ×
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
