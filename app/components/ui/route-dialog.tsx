import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { Link, useLocation, useNavigate } from '@remix-run/react';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { DIALOG_ID } from '~/utils/dialog-fragment';
import { useHydrated } from '~/utils/use-hydrated';

/**
 * However the dialog closes — Escape, the Close link, a submit that redirects, a cancelled
 * delete — focus goes back to the control that opened it, or, when that control is gone (a
 * deleted row), to the page's main heading. The opener is the element that had focus when the
 * dialog's route rendered: the link or button that was activated.
 */
function useReturnFocus() {
  // Read while rendering, before the dialog's own effects move focus into it.
  const [opener] = useState(() =>
    typeof document !== 'undefined' && document.activeElement instanceof HTMLElement
      ? document.activeElement
      : null,
  );
  useEffect(() => {
    return () => {
      // After the parent route has rendered in the dialog's place.
      // Headless UI has already put the focus back on the last element it saw focused that
      // still exists, which is another control when the opener went away with its row.
      requestAnimationFrame(() => {
        if (opener && opener !== document.body && opener.isConnected) {
          opener.focus();
          return;
        }
        const heading = document.querySelector<HTMLElement>('main h1, h1');
        if (!heading) return;
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
      });
    };
  }, [opener]);
}

/** Whether a field in the element holds something other than what the page was sent with. */
function hasChangedField(element: HTMLElement) {
  for (const field of element.querySelectorAll('input, textarea, select')) {
    if (field instanceof HTMLSelectElement) {
      if (Array.from(field.options).some((option) => option.selected !== option.defaultSelected)) {
        return true;
      }
    } else if (
      field instanceof HTMLInputElement &&
      (field.type === 'checkbox' || field.type === 'radio')
    ) {
      if (field.checked !== field.defaultChecked) return true;
    } else if (
      (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) &&
      field.value !== field.defaultValue
    ) {
      return true;
    }
  }
  return false;
}

const useLayoutEffectInBrowser = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Whether the dialog opens as a modal: at once when it opens in the browser (a link followed),
 * and at hydration unless someone started on the form before the page's scripts ran (a slow
 * phone, a busy machine): when a field was already changed or has focus, the dialog stays the
 * section it was rendered as, rather than becoming a modal whose new fields would be empty. The
 * fields are read and the modal put in their place in one step (a layout effect's update is
 * rendered before the browser handles the next keystroke), so nothing typed in between is lost.
 */
function useOpensAsModal() {
  const section = useRef<HTMLElement>(null);
  const inBrowser = useHydrated();
  const [modal, setModal] = useState(inBrowser);
  useLayoutEffectInBrowser(() => {
    const element = section.current;
    if (!element) return;
    if (element.contains(document.activeElement) || hasChangedField(element)) return;
    setModal(true);
  }, []);
  return { section, modal };
}

/** Where a dialog over the page at `path` closes to: that page, with the search it was opened with. */
export function useCloseTo(path: string) {
  const { search } = useLocation();
  return `${path}${search}`;
}

/**
 * A dialog that is also a URL. With JavaScript it opens as a modal over the parent route;
 * without (or before hydration) the same content renders as a plain section of the page,
 * because a Headless UI Dialog renders nothing on the server. It stays that section when someone
 * was already filling it in when the scripts arrived.
 */
export function RouteDialog({
  title,
  closeTo,
  children,
  size = 'lg',
  description,
}: {
  title: ReactNode;
  /** Where closing goes: usually the parent list, keeping its search parameters. */
  closeTo: string;
  children: ReactNode;
  size?: 'md' | 'lg' | 'xl';
  description?: ReactNode;
}) {
  const navigate = useNavigate();
  useReturnFocus();
  const { section, modal } = useOpensAsModal();
  const width = size === 'md' ? 'max-w-md' : size === 'lg' ? 'max-w-2xl' : 'max-w-4xl';

  if (!modal) {
    return (
      <section
        ref={section}
        id={DIALOG_ID}
        aria-labelledby="route-dialog-title"
        className={`card mx-auto my-6 w-full ${width} p-6`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id="route-dialog-title" className="text-xl font-semibold">
              {title}
            </h2>
            {description ? <div className="mt-1 text-sm text-gray-600">{description}</div> : null}
          </div>
          <Link to={closeTo} className="btn-secondary" aria-label="Close">
            Close
          </Link>
        </div>
        {children}
      </section>
    );
  }

  return (
    <Dialog
      open
      onClose={() => navigate(closeTo, { preventScrollReset: true })}
      className="relative z-40"
    >
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-start justify-center p-4 sm:items-center">
          <DialogPanel className={`w-full ${width} rounded-lg bg-white p-6 shadow-xl`}>
            <div className="mb-4 flex items-start justify-between gap-4">
              <div>
                <DialogTitle className="text-xl font-semibold">{title}</DialogTitle>
                {description ? (
                  <div className="mt-1 text-sm text-gray-600">{description}</div>
                ) : null}
              </div>
              <Link to={closeTo} preventScrollReset className="btn-secondary" aria-label="Close">
                Close
              </Link>
            </div>
            {children}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
