import { MAX_TRACKING_NUMBERS } from '~/schemas/constants';
import { useLocation } from '@remix-run/react';
import { supportedLanguage } from '~/schemas/languages';
import { usePageText } from './page-text';

/**
 * A GET form to /track, which trims what was typed and reads up to 30 numbers. `required` and the
 * pattern make the browser refuse a blank value, so an empty box goes nowhere.
 */
export function TrackingBox() {
  const { t } = usePageText();
  const chosen = supportedLanguage(new URLSearchParams(useLocation().search).get('lang'));
  return (
    <div className="card relative mx-auto max-w-3xl p-4 shadow-lg sm:-mt-12 sm:p-8">
      <h2 id="track-box-heading" className="text-xl font-bold text-gray-900">
        {t('trackingBox.heading')}
      </h2>
      <p id="track-box-hint" className="mt-1 text-sm text-gray-600">
        {t('trackingBox.hint', { max: MAX_TRACKING_NUMBERS })}
      </p>
      <form
        method="get"
        action="/track"
        aria-labelledby="track-box-heading"
        className="mt-4 flex flex-col gap-3 sm:flex-row"
      >
        {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
        <label htmlFor="home-tracking-number" className="sr-only">
          {t('trackingBox.label')}
        </label>
        <input
          id="home-tracking-number"
          type="text"
          name="number"
          required
          pattern=".*\S.*"
          title={t('trackingBox.title')}
          maxLength={MAX_TRACKING_NUMBERS * 20}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-describedby="track-box-hint"
          placeholder={t('public:track.placeholder')}
          className="field-input min-w-0 flex-1 py-3 text-base"
        />
        <button type="submit" className="btn-accent px-6 py-3 text-base">
          {t('trackingBox.submit')}
        </button>
      </form>
    </div>
  );
}
