import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';

/**
 * A settings page's choice of what to edit (an event, a language): its selects in a GET form with
 * an Open button, so the choice is the page's address and works without JavaScript.
 */
export function OpenForm({ children }: { children: ReactNode }) {
  return (
    <Form method="get" className="card flex flex-wrap items-end gap-3 p-4">
      {children}
      <button type="submit" className="btn-secondary">
        Open
      </button>
    </Form>
  );
}
