import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
} from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { PostcodeField } from './postcode-field';
import { usePublicMessages } from '~/components/public/public-messages';
import {
  ResultSection,
  ResultSectionForm,
  SectionConfirmation,
  useResultSectionForm,
} from './result-section';
import { Field, SelectField, TextareaField } from '~/components/ui/field';
import type { SerializedDeliveryPreferences } from '~/models/parcel.server';
import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import {
  deliveryPreferencesSchema,
  INSTRUCTIONS_MAX,
  SAFE_PLACES,
  SAFE_PLACE_OTHER_MAX,
} from '~/schemas/delivery-preferences';

export const PREFERENCES_SAVED = 'Your delivery preferences are saved. The courier will see them.';

/**
 * Under a tracking result, folded away: the recipient's say over the delivery, opened with the
 * postcode of the delivery address. A plain form posted to the page (no script needed).
 */
export function ManageDeliveryForm({
  trackingNumber,
  days,
  justSaved,
  saved,
  open,
  lastResult,
}: {
  trackingNumber: string;
  /** The days that may be asked for, as values and as the recipient reads them. */
  days: Array<{ value: string; label: string }>;
  /** The preferences were just saved (the page after the form). */
  justSaved: boolean;
  /** What the recipient asked for, shown back once their postcode opened the parcel here. */
  saved: SerializedDeliveryPreferences | null;
  /** Open from the start: after a failed attempt, this is what the recipient needs. */
  open: boolean;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useResultSectionForm(
    'manage-delivery',
    lastResult,
    deliveryPreferencesSchema(days.map((d) => d.value)),
    saved
      ? {
          instructions: saved.instructions ?? '',
          safePlace: saved.safePlace ?? '',
          safePlaceOther: saved.safePlaceOther ?? '',
          requestedDate: saved.requestedDate ?? '',
          holdAtDepot: saved.holdAtDepot ? 'on' : '',
        }
      : undefined,
  );
  const { t, i18n } = useTranslation('public');
  const { messages } = usePublicMessages();
  const savedLines = describeDeliveryPreferences(saved, {
    lang: i18n.language,
    t: (key, values) => t(`manage.lines.${key}`, values),
    place: (code) => t(`manage.places.${code}`),
  });
  return (
    <ResultSection section="manage">
      <details open={open || !!lastResult || justSaved}>
        <summary className="flex min-h-11 cursor-pointer items-center text-lg font-semibold">
          <h2 id="manage-heading" className="inline">
            {open ? t('manage.headingNext') : t('manage.heading')}
          </h2>
        </summary>
        <p className="mt-2 text-sm text-gray-600">
          {open ? t('manage.introNext') : t('manage.intro')} {t('manage.postcodeIntro')}
        </p>
        {justSaved && !lastResult ? (
          <SectionConfirmation>{t('manage.saved')}</SectionConfirmation>
        ) : null}
        {savedLines.length ? (
          <div className="mt-4" data-saved-preferences>
            <h3 className="font-semibold">{t('manage.savedHeading')}</h3>
            <ul className="mt-1 list-disc ps-5 text-gray-800">
              {savedLines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <ResultSectionForm
          section="manage"
          trackingNumber={trackingNumber}
          form={form}
          className="mt-4 grid gap-4 sm:grid-cols-2"
        >
          <input type="hidden" name="intent" value="preferences" />
          <PostcodeField field={fields.postalCode} />
          <SelectField
            label={t('manage.day')}
            {...getSelectProps(fields.requestedDate)}
            errors={messages(fields.requestedDate.errors)}
            options={days}
          >
            <option value="">{t('manage.keepDay')}</option>
          </SelectField>
          <SelectField
            label={t('manage.safePlace')}
            {...getSelectProps(fields.safePlace)}
            errors={messages(fields.safePlace.errors)}
            options={Object.keys(SAFE_PLACES).map((value) => ({
              value,
              label: t(`manage.places.${value}`),
            }))}
          >
            <option value="">{t('manage.noSafePlace')}</option>
          </SelectField>
          <Field
            label={t('manage.where')}
            {...getInputProps(fields.safePlaceOther, { type: 'text' })}
            maxLength={SAFE_PLACE_OTHER_MAX}
            errors={messages(fields.safePlaceOther.errors)}
          />
          <TextareaField
            className="sm:col-span-2"
            label={t('manage.instructions', { max: INSTRUCTIONS_MAX })}
            {...getTextareaProps(fields.instructions)}
            maxLength={INSTRUCTIONS_MAX}
            rows={3}
            errors={messages(fields.instructions.errors)}
          />
          <label className="flex min-h-11 items-center gap-2 sm:col-span-2">
            <input
              {...getInputProps(fields.holdAtDepot, { type: 'checkbox' })}
              className="h-6 w-6"
            />
            {t('manage.hold')}
          </label>
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary">
              {t('manage.submit')}
            </button>
          </div>
        </ResultSectionForm>
      </details>
    </ResultSection>
  );
}
