import { getInputProps, type SubmissionResult } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { usePublicMessages } from '~/components/public/public-messages';
import { HoneypotField } from '~/components/public/honeypot-field';
import { Field } from '~/components/ui/field';
import { ParcelSubscribeSchema } from '~/schemas/public-forms';
import {
  ResultSection,
  ResultSectionForm,
  SectionConfirmation,
  useResultSectionForm,
} from './result-section';

/**
 * Under a tracking result: a visitor leaves an e-mail address to hear of every new event until
 * delivery. A plain form: the page posts it to its own URL and comes back to this section.
 */
export function SubscribeForm({
  trackingNumber,
  sent,
  lastResult,
}: {
  trackingNumber: string;
  /** The request was taken: say what happens next (the same whatever the address). */
  sent: string | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useResultSectionForm('subscribe-form', lastResult, ParcelSubscribeSchema);
  const { t } = useTranslation('public');
  const { messages } = usePublicMessages();
  return (
    <ResultSection section="subscribe">
      <h2 id="subscribe-heading" className="text-lg font-semibold">
        {t('subscribe.heading')}
      </h2>
      <p className="mt-1 text-sm text-gray-600">{t('subscribe.text')}</p>
      {sent ? <SectionConfirmation>{t('subscribe.sent')}</SectionConfirmation> : null}
      <ResultSectionForm
        section="subscribe"
        trackingNumber={trackingNumber}
        form={form}
        className="relative mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <HoneypotField />
        <Field
          className="flex-1"
          label={t('subscribe.emailLabel')}
          {...getInputProps(fields.email, { type: 'email' })}
          autoComplete="email"
          required
          maxLength={254}
          errors={messages(fields.email.errors)}
        />
        <button type="submit" className="btn-primary">
          {t('subscribe.submit')}
        </button>
      </ResultSectionForm>
    </ResultSection>
  );
}
