import { MAX_TRACKING_NUMBERS, TRACKING_NUMBER_PLACEHOLDER } from '~/schemas/constants';

/**
 * A GET form to /track, which trims what was typed and reads up to 30 numbers. `required` and the
 * pattern make the browser refuse a blank value, so an empty box goes nowhere.
 */
export function TrackingBox() {
  return (
    <div className="card relative mx-auto max-w-3xl p-4 shadow-lg sm:-mt-12 sm:p-8">
      <h2 id="track-box-heading" className="text-xl font-bold text-gray-900">
        Track your package
      </h2>
      <p id="track-box-hint" className="mt-1 text-sm text-gray-600">
        Enter your tracking number to see every scan, from pickup to proof of delivery. Tracking
        several? Separate up to {MAX_TRACKING_NUMBERS} numbers with commas or spaces.
      </p>
      <form
        method="get"
        action="/track"
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
          maxLength={MAX_TRACKING_NUMBERS * 20}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-describedby="track-box-hint"
          placeholder={TRACKING_NUMBER_PLACEHOLDER}
          className="field-input min-w-0 flex-1 py-3 text-base"
        />
        <button type="submit" className="btn-accent px-6 py-3 text-base">
          Track Package
        </button>
      </form>
    </div>
  );
}
