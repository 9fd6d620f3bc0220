import path from 'node:path';
import { createCookie } from '@remix-run/node';
import { createInstance, type i18n as I18n } from 'i18next';
import Backend from 'i18next-fs-backend';
import ICU from 'i18next-icu';
import Negotiator from 'negotiator';
import {
  LANGUAGE_CODES,
  SOURCE_LANGUAGE,
  supportedLanguage,
  type Language,
} from '~/schemas/languages';
import type { Words } from '~/utils/delivery-headline';
import { remembered } from '~/utils/remembered';
import { env } from './env.server';

/**
 * The messages of the public site (the tracking page and the site's frame in `public`, the
 * marketing and legal pages' bodies in `pages`) and the customers' e-mails, through i18next with ICU message
 * syntax (plurals, placeholders), read once from app/locales/<language>/<namespace>.json; and
 * which language a request is answered in. Per-process: the messages are the build's, the same in
 * every process.
 */

export const NAMESPACES = ['public', 'pages', 'emails', 'templates'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const LOCALES_DIR = path.resolve('app/locales');

const i18n = createInstance();
void i18n
  .use(Backend)
  .use(ICU)
  .init({
    // The files are read at once, synchronously, so that a page renders with its messages.
    initAsync: false,
    supportedLngs: [...LANGUAGE_CODES],
    preload: [...LANGUAGE_CODES],
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    ns: [...NAMESPACES],
    defaultNS: 'public',
    backend: { loadPath: path.join(LOCALES_DIR, '{{lng}}/{{ns}}.json') },
    // React escapes what it renders; the e-mails escape their HTML themselves.
    interpolation: { escapeValue: false },
    returnNull: false,
  });

const instances = new Map<Language, I18n>();

/** An i18next instance fixed to `language`, for the pages' React tree. */
export function i18nFor(language: Language): I18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = i18n.cloneInstance({ lng: language, initAsync: false });
    instances.set(language, instance);
  }
  return instance;
}

/** The messages of one namespace in `language`: the e-mails', the pages'. */
export function translator(language: Language, namespace: Namespace = 'emails') {
  return i18n.getFixedT(language, namespace);
}

const wordsByLanguage = new Map<Language, Words>();

/** Dates and sentences about a delivery (app/utils/delivery-headline.ts) in `language`. */
export function wordsFor(language: Language): Words {
  let words = wordsByLanguage.get(language);
  if (!words) {
    const t = i18n.getFixedT(language, 'public');
    // The shipped sentences never change while the app runs, and the same days and times come
    // back: each sentence is put together once.
    words = {
      lang: language,
      t: remembered(
        (key: string, values?: Record<string, string | number>) => t(`delivery.${key}`, values),
        (key, values) => `${key} ${JSON.stringify(values ?? null)}`,
      ),
    };
    wordsByLanguage.set(language, words);
  }
  return words;
}

/** A file's messages as stored (the e-mail templates keep their {{placeholders}} as written). */
export function resourceBundle(language: Language, namespace: Namespace): Record<string, unknown> {
  return (i18n.getResourceBundle(language, namespace) ?? {}) as Record<string, unknown>;
}

type ShippedTemplate = { subject: string; text: string; html: string };

/** An e-mail template as shipped in `language` (app/locales/<language>/templates.json). */
export function templateAsShipped(type: string, language: Language): ShippedTemplate {
  const template = resourceBundle(language, 'templates')[type] as ShippedTemplate | undefined;
  return template ?? { subject: '', text: '', html: '' };
}

/** An e-mail template as shipped in `language`; null when that language leaves it empty. */
export function shippedTemplate(type: string, language: Language): ShippedTemplate | null {
  const template = templateAsShipped(type, language);
  return template.subject.trim() && template.text.trim() ? template : null;
}

/** The footer's choice of language, for a year; not signed: it is only a preference. */
export const languageCookie = createCookie('lang', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export async function cookieLanguage(request: Request): Promise<Language | null> {
  const value: unknown = await languageCookie.parse(request.headers.get('Cookie'));
  return typeof value === 'string' ? supportedLanguage(value) : null;
}

/** The language the browser asks for first among ours (`Accept-Language`), if any. */
export function acceptedLanguage(request: Request): Language | null {
  const header = request.headers.get('Accept-Language');
  if (!header) return null;
  const negotiator = new Negotiator({ headers: { 'accept-language': header } });
  return supportedLanguage(negotiator.language([...LANGUAGE_CODES]));
}

/** The language a message to a recipient is written in: theirs when we write it, else ours. */
export function recipientLanguage(tag: string | null | undefined): Language {
  return supportedLanguage(tag) ?? env.DEFAULT_LANGUAGE;
}

/**
 * The language a public page is answered in: `?lang=`, else the footer's choice (the `lang`
 * cookie), else the recipient's language on a tracking result, else what the browser asks for
 * (`Accept-Language`), else DEFAULT_LANGUAGE.
 */
export async function requestLanguage(
  request: Request,
  { recipient }: { recipient?: string | null } = {},
): Promise<Language> {
  return (
    queryLanguage(request) ??
    (await cookieLanguage(request)) ??
    supportedLanguage(recipient) ??
    acceptedLanguage(request) ??
    env.DEFAULT_LANGUAGE
  );
}

/**
 * The language a public form was filled in: the page's (its hidden `lang` field), else the
 * request's. What it leads to (a confirmation e-mail, a subscriber's updates) is written in it.
 */
export async function formLanguage(request: Request, formData: FormData): Promise<Language> {
  const field = formData.get('lang');
  return (
    (typeof field === 'string' && supportedLanguage(field)) || (await requestLanguage(request))
  );
}

export function queryLanguage(request: Request): Language | null {
  return supportedLanguage(new URL(request.url).searchParams.get('lang'));
}
