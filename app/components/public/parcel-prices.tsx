import { useTranslation } from 'react-i18next';
import { formatMoney } from '~/utils/money';

/** The /quote page's pricer: a GET form, and the price of each service once it is filled in. */
export type ParcelPricesData = {
  values: Record<string, string>;
  /** The fields to check, by name. */
  invalid: string[];
  problem: 'not-served' | 'not-offered' | 'too-many' | null;
  prices: Array<{
    serviceType: string;
    amount: number;
    currency: string;
    chargeableWeight: number;
    estimatedDelivery: string;
  }> | null;
  language: string | null;
  /** Card payment is offered: each price can be booked and paid at once (/book). */
  cardOffered?: boolean;
};

const PLACES = [
  ['from', 'fromCountry', 'fromPostalCode'],
  ['to', 'toCountry', 'toPostalCode'],
] as const;
const MEASURES = ['weight', 'length', 'width', 'height'] as const;

function Input({
  name,
  label,
  data,
  ...rest
}: {
  name: string;
  label: string;
  data: ParcelPricesData;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const invalid = data.invalid.includes(name);
  const { t } = useTranslation('public');
  return (
    <label className="block text-sm font-medium text-gray-700">
      {label}
      <input
        name={name}
        defaultValue={data.values[name] ?? ''}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${name}-error` : undefined}
        className="input mt-1 w-full"
        {...rest}
      />
      {invalid ? (
        <span id={`${name}-error`} className="field-error">
          {t('prices.check')}
        </span>
      ) : null}
    </label>
  );
}

export function ParcelPrices({ data }: { data: ParcelPricesData }) {
  const { t, i18n } = useTranslation('public');
  const locale = i18n.language;
  const day = (iso: string) =>
    new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(`${iso}T00:00:00Z`));
  return (
    <section aria-labelledby="prices-heading" className="mx-auto max-w-7xl px-4 pt-16">
      <h2 id="prices-heading" className="text-2xl font-bold text-gray-900">
        {t('prices.heading')}
      </h2>
      <p className="mt-2 text-gray-600">{t('prices.intro')}</p>
      <form
        method="get"
        action="/quote#prices"
        className="card mt-6 grid gap-4 p-6 sm:grid-cols-2 lg:grid-cols-4"
      >
        {data.language ? <input type="hidden" name="lang" value={data.language} /> : null}
        {PLACES.map(([place, country, postcode]) => (
          <fieldset key={place} className="grid gap-2 sm:col-span-2 sm:grid-cols-2">
            <legend className="text-sm font-semibold text-gray-900">{t(`prices.${place}`)}</legend>
            <Input
              name={country}
              label={t('prices.country')}
              data={data}
              required
              maxLength={2}
              autoComplete={place === 'to' ? 'shipping country' : 'country'}
            />
            <Input
              name={postcode}
              label={t('prices.postalCode')}
              data={data}
              maxLength={20}
              autoComplete={place === 'to' ? 'shipping postal-code' : 'postal-code'}
            />
          </fieldset>
        ))}
        {MEASURES.map((measure) => (
          <Input
            key={measure}
            name={measure}
            label={t(`prices.${measure}`)}
            data={data}
            required
            type="number"
            min="0.001"
            step="any"
            inputMode="decimal"
          />
        ))}
        <div className="sm:col-span-2 lg:col-span-4">
          <button type="submit" className="btn-accent">
            {t('prices.submit')}
          </button>
        </div>
      </form>
      <div id="prices" aria-live="polite" className="mt-6">
        {data.problem ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
            {t(`prices.problem.${data.problem}`)}
          </p>
        ) : null}
        {data.prices ? (
          <>
            <h3 className="text-lg font-semibold text-gray-900">{t('prices.resultsHeading')}</h3>
            <p className="text-sm text-gray-600">
              {t('prices.chargeable', { weight: data.prices[0]?.chargeableWeight ?? 0 })}
            </p>
            <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {data.prices.map((price) => (
                <li key={price.serviceType} className="card p-4">
                  <p className="font-semibold text-gray-900">{t(`service.${price.serviceType}`)}</p>
                  <p className="mt-1 text-2xl font-bold text-brand-700">
                    {formatMoney(price, locale)}
                  </p>
                  <p className="mt-1 text-sm text-gray-600">
                    {t('prices.delivery', { day: day(price.estimatedDelivery) })}
                  </p>
                  {data.cardOffered ? (
                    <BookAndPay data={data} serviceType={price.serviceType} />
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  );
}

/**
 * "Book and pay" under a price: posts the parcel and the service to /book, which holds the price
 * as a quote and opens the booking form (the price itself is never sent).
 */
function BookAndPay({ data, serviceType }: { data: ParcelPricesData; serviceType: string }) {
  const { t } = useTranslation('public');
  return (
    <form method="post" action="/book" className="mt-3">
      <input type="hidden" name="intent" value="quote" />
      <input type="hidden" name="serviceType" value={serviceType} />
      {Object.entries(data.values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {data.language ? <input type="hidden" name="lang" value={data.language} /> : null}
      <button
        type="submit"
        className="btn-primary w-full"
        aria-label={t('book.bookAndPayService', { service: t(`service.${serviceType}`) })}
      >
        {t('book.bookAndPay')}
      </button>
    </form>
  );
}
