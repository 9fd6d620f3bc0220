import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { Link, useNavigate } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useHydrated } from '~/utils/use-hydrated';

/**
 * A dialog that is also a URL. With JavaScript it opens as a modal over the parent route;
 * without (or before hydration) the same content renders as a plain section of the page,
 * because a Headless UI Dialog renders nothing on the server.
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
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const width = size === 'md' ? 'max-w-md' : size === 'lg' ? 'max-w-2xl' : 'max-w-4xl';

  if (!hydrated) {
    return (
      <section
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
