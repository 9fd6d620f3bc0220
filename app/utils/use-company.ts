import { useRouteLoaderData } from '@remix-run/react';
import type { CompanyInfo } from '~/lib/env.server';
import { DEFAULT_COMPANY_TIME_ZONE } from './company-defaults';

/** What the defaults say of the company, for a page drawn without the root's data (an error). */
const FALLBACK: CompanyInfo = {
  name: 'SwiftShip Courier',
  phone: '+1 (800) 555-0199',
  email: 'support@swiftship.example',
  address: '350 Fifth Avenue, Suite 4100, New York, NY 10118, United States',
  timeZone: DEFAULT_COMPANY_TIME_ZONE,
};

/** The company's name, contacts and time zone, as the root loaded them from the environment. */
export function useCompany(): CompanyInfo {
  return useRouteLoaderData<{ company: CompanyInfo }>('root')?.company ?? FALLBACK;
}
