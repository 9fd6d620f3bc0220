import { Form, Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

/**
 * The confirmation of a destructive action in Settings (revoking a key, deleting a webhook): the
 * button that asked for it is a link to the same page with a query parameter, which shows this
 * panel. Without JavaScript the link's fragment scrolls it into view; with it, focus moves to its
 * heading. Its button posts `intent` and `fields`; Cancel goes back to `cancelTo`.
 */
export function ConfirmPanel({
  id,
  title,
  children,
  action,
  intent,
  fields = {},
  confirmLabel,
  busyLabel,
  cancelTo,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  action: string;
  intent: string;
  fields?: Record<string, string>;
  confirmLabel: string;
  busyLabel: string;
  cancelTo: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const busy = useIsPending({ formAction: action, state: 'submitting', formData: { intent } });
  useEffect(() => heading.current?.focus(), [id]);
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="card space-y-3 border-red-200 bg-red-50 p-4"
    >
      <h2
        id={`${id}-heading`}
        ref={heading}
        tabIndex={-1}
        className="break-all text-lg font-semibold text-red-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-700"
      >
        {title}
      </h2>
      <div className="text-sm text-red-900">{children}</div>
      <Form method="post" action={action} className="flex flex-wrap gap-3">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <SubmitButton
          name="intent"
          value={intent}
          className="btn-danger"
          pending={busy}
          pendingLabel={busyLabel}
        >
          {confirmLabel}
        </SubmitButton>
        <Link to={cancelTo} className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </section>
  );
}
