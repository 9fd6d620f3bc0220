import { formatPrice } from './money';

/** The plans' prices per shipment and the insurance each includes, as the public pages quote them. */
export const PLAN_PRICES = {
  basic: { amount: 999, currency: 'USD' },
  premium: { amount: 1999, currency: 'USD' },
} as const;
export const PLAN_COVER = {
  basic: { amount: 10000, currency: 'USD' },
  premium: { amount: 100000, currency: 'USD' },
} as const;

/**
 * The figures the marketing pages quote in their sentences, written the way `language` writes
 * numbers, percentages and money ("99.5%", "99,5 %"; "$9.99", "9,99 $US"): the values of the
 * pages' messages (app/locales/<language>/pages.json). Safe in the browser.
 */
export function pageFigures(language: string) {
  const number = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  return {
    onTime: percent.format(0.995),
    customers: number.format(50000),
    businessCustomers: number.format(20000),
    basic: formatPrice(PLAN_PRICES.basic, language),
    premium: formatPrice(PLAN_PRICES.premium, language),
    basicCover: formatPrice(PLAN_COVER.basic, language),
    premiumCover: formatPrice(PLAN_COVER.premium, language),
  };
}
