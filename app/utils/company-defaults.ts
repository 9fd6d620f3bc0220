/** The company's time zone when COMPANY_TIMEZONE is not set (a page drawn without data reads it too). */
export const DEFAULT_COMPANY_TIME_ZONE = 'America/New_York';
