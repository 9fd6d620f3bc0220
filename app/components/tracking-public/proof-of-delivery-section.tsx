import type { SubmissionResult } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { PostcodeField } from './postcode-field';
import { ResultSection, ResultSectionForm, useResultSectionForm } from './result-section';
import { ProofAccessSchema } from '~/schemas/delivery-preferences';
import type { PublicProof } from '~/services/public-proof.server';

/**
 * Under a delivered parcel's result: the photos and signature the courier took, shown only once
 * the postcode of the delivery address is given (a plain form; no script needed).
 */
export function ProofOfDeliverySection({
  trackingNumber,
  access,
  proofs,
  lastResult,
}: {
  trackingNumber: string;
  /** The recipient's signed link's value, when the page was opened through it. */
  access: string | null;
  proofs: PublicProof[] | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useResultSectionForm('proof-access', lastResult, ProofAccessSchema);
  const { t } = useTranslation('public');
  return (
    <ResultSection section="proof">
      <h2 id="proof-heading" className="text-lg font-semibold">
        {t('proof.heading')}
      </h2>
      {proofs ? (
        proofs.length === 0 ? (
          <p className="mt-2 text-gray-700">{t('proof.none')}</p>
        ) : (
          proofs.map((proof, index) => (
            <div key={index} className="mt-3">
              <p className="text-gray-800">
                {t('proof.receivedBy', { name: proof.receivedBy, time: proof.deliveredAt })}
              </p>
              <div className="mt-2 flex flex-wrap gap-3">
                {proof.photos.map((photo, n) => (
                  <img
                    key={photo.url}
                    src={photo.url}
                    width={photo.width}
                    height={photo.height}
                    alt={t('proof.photo', { n: n + 1 })}
                    className="h-auto max-w-full rounded border border-gray-200 sm:max-w-xs"
                  />
                ))}
                {proof.signature ? (
                  <img
                    src={proof.signature.url}
                    width={proof.signature.width}
                    height={proof.signature.height}
                    alt={t('proof.signature', { name: proof.receivedBy })}
                    className="h-auto max-w-full rounded border border-gray-200 bg-white sm:max-w-xs"
                  />
                ) : null}
              </div>
            </div>
          ))
        )
      ) : !access && !lastResult ? (
        <p className="mt-1 text-sm text-gray-600">{t('proof.forRecipient')}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-600">{t('proof.enterPostcode')}</p>
          <ResultSectionForm
            section="proof"
            trackingNumber={trackingNumber}
            query={access ? { proof: access } : {}}
            form={form}
            className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
          >
            <input type="hidden" name="intent" value="proof" />
            <input type="hidden" name="proof" value={access ?? ''} />
            <PostcodeField className="flex-1" field={fields.postalCode} />
            <button type="submit" className="btn-primary">
              {t('proof.submit')}
            </button>
          </ResultSectionForm>
        </>
      )}
    </ResultSection>
  );
}
