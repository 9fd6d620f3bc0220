import { Form, useNavigate } from '@remix-run/react';
import type { FormEvent } from 'react';
import { useHydrated } from '~/utils/use-hydrated';

/**
 * A GET form to /track. With JavaScript the number is trimmed before navigating and a blank value
 * does nothing; without it, `required` and the pattern make the browser refuse a blank value.
 */
export function TrackingBox() {
  const navigate = useNavigate();
  // Once scripts run, a blank value is ignored silently instead of raising the browser's warning.
  const hydrated = useHydrated();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('number');
    const number = typeof value === 'string' ? value.trim() : '';
    if (!number) return;
    navigate(`/track?number=${encodeURIComponent(number)}`);
  }

  return (
    <div className="card relative mx-auto -mt-12 max-w-3xl p-6 shadow-lg sm:p-8">
      <h2 id="track-box-heading" className="text-xl font-bold text-gray-900">
        Track your package
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        Enter your tracking number to see every scan, from pickup to proof of delivery.
      </p>
      <Form
        method="get"
        action="/track"
        onSubmit={onSubmit}
        noValidate={hydrated}
        aria-labelledby="track-box-heading"
        className="mt-4 flex flex-col gap-3 sm:flex-row"
      >
        <label htmlFor="home-tracking-number" className="sr-only">
          Tracking number
        </label>
        <input
          id="home-tracking-number"
          type="text"
          name="number"
          required
          pattern=".*\S.*"
          title="Enter a tracking number, e.g. SWX123456789"
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          placeholder="Enter tracking number (e.g. SWX123456789)"
          className="field-input flex-1 py-3 text-base"
        />
        <button type="submit" className="btn-accent px-6 py-3 text-base">
          Track Package
        </button>
      </Form>
    </div>
  );
}
