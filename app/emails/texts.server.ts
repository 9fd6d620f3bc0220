import { env } from '~/lib/env.server';
import { expectedWindow } from '~/lib/parcel-delivery-data.server';
import { recipientTimeZone } from '~/lib/address-time-zone.server';
import { trackingUrl } from '~/lib/urls.server';
import { type FailureReason } from '~/schemas/constants';
import { type TEXT_PLACEHOLDERS, type TextEvent, type TextLanguage } from '~/schemas/texts';
import type { PlaceholderParcel } from './templates.server';

/**
 * The automatic texts about a parcel, composed here beside the automatic e-mails
 * (automatic.server.ts): each event's template in the recipient's language (an admin's, else the
 * default below), filled in for the parcel and what happened. Every text names the company: one
 * whose template does not is opened with its name. The services gather the facts and queue what
 * is made here.
 */

type Words = {
  window: (from: string | null, until: string) => string;
  noWindow: string;
  nextTry: (day: string) => string;
  noNextTry: string;
  someone: string;
  reasons: Record<FailureReason, string>;
};

const WORDS: Record<TextLanguage, Words> = {
  en: {
    window: (from, until) => (from ? `between ${from} and ${until}` : `by ${until}`),
    noWindow: 'during the day',
    nextTry: (day) => `We will try again on ${day}.`,
    noNextTry: 'We will be in touch about the next try.',
    someone: 'someone at the address',
    reasons: {
      recipient_unavailable: 'nobody was available',
      address_not_found: 'we could not find the address',
      access_restricted: 'we could not get access',
      refused: 'the parcel was refused',
      business_closed: 'the business was closed',
      damaged: 'the parcel was damaged',
      weather: 'the weather prevented it',
      other: 'the delivery could not be completed',
    },
  },
  es: {
    window: (from, until) => (from ? `entre las ${from} y las ${until}` : `antes de las ${until}`),
    noWindow: 'durante el día',
    nextTry: (day) => `Lo intentaremos de nuevo el ${day}.`,
    noNextTry: 'Le avisaremos del próximo intento.',
    someone: 'alguien en la dirección',
    reasons: {
      recipient_unavailable: 'no había nadie',
      address_not_found: 'no encontramos la dirección',
      access_restricted: 'no pudimos acceder',
      refused: 'el paquete fue rechazado',
      business_closed: 'el negocio estaba cerrado',
      damaged: 'el paquete estaba dañado',
      weather: 'el tiempo lo impidió',
      other: 'no se pudo completar la entrega',
    },
  },
  fr: {
    window: (from, until) => (from ? `entre ${from} et ${until}` : `avant ${until}`),
    noWindow: 'dans la journée',
    nextTry: (day) => `Nous réessaierons le ${day}.`,
    noNextTry: 'Nous vous recontacterons pour le prochain essai.',
    someone: 'une personne à l’adresse',
    reasons: {
      recipient_unavailable: 'personne n’était disponible',
      address_not_found: 'nous n’avons pas trouvé l’adresse',
      access_restricted: 'nous n’avons pas pu accéder à l’adresse',
      refused: 'le colis a été refusé',
      business_closed: 'l’établissement était fermé',
      damaged: 'le colis était endommagé',
      weather: 'la météo l’a empêché',
      other: 'la livraison n’a pas pu être faite',
    },
  },
  de: {
    window: (from, until) => (from ? `zwischen ${from} und ${until}` : `bis ${until}`),
    noWindow: 'im Laufe des Tages',
    nextTry: (day) => `Wir versuchen es erneut am ${day}.`,
    noNextTry: 'Wir melden uns wegen des nächsten Versuchs.',
    someone: 'eine Person an der Adresse',
    reasons: {
      recipient_unavailable: 'niemand war erreichbar',
      address_not_found: 'wir haben die Adresse nicht gefunden',
      access_restricted: 'wir hatten keinen Zugang',
      refused: 'die Annahme wurde verweigert',
      business_closed: 'das Geschäft war geschlossen',
      damaged: 'das Paket war beschädigt',
      weather: 'das Wetter hat es verhindert',
      other: 'die Zustellung war nicht möglich',
    },
  },
  ar: {
    window: (from, until) => (from ? `بين ${from} و${until}` : `قبل ${until}`),
    noWindow: 'خلال اليوم',
    nextTry: (day) => `سنحاول مرة أخرى يوم ${day}.`,
    noNextTry: 'سنتواصل معك بشأن المحاولة التالية.',
    someone: 'شخص في العنوان',
    reasons: {
      recipient_unavailable: 'لم يكن أحد متاحًا',
      address_not_found: 'لم نجد العنوان',
      access_restricted: 'لم نتمكن من الوصول',
      refused: 'تم رفض الطرد',
      business_closed: 'كان المحل مغلقًا',
      damaged: 'كان الطرد تالفًا',
      weather: 'منع الطقس التسليم',
      other: 'تعذر إتمام التسليم',
    },
  },
};

/** The default templates, by event and language. */
export const DEFAULT_TEXT_TEMPLATES: Record<TextEvent, Record<TextLanguage, string>> = {
  outForDelivery: {
    en: '{{companyName}}: your parcel {{trackingNumber}} is out for delivery today, {{deliveryWindow}}. Reply 1 to leave it with a neighbour, 2 to hold it at the depot.',
    es: '{{companyName}}: su paquete {{trackingNumber}} está en reparto hoy, {{deliveryWindow}}. Responda 1 para dejarlo con un vecino, 2 para guardarlo en el depósito.',
    fr: '{{companyName}} : votre colis {{trackingNumber}} est en cours de livraison aujourd’hui, {{deliveryWindow}}. Répondez 1 pour le laisser à un voisin, 2 pour le garder au dépôt.',
    de: '{{companyName}}: Ihr Paket {{trackingNumber}} wird heute zugestellt, {{deliveryWindow}}. Antworten Sie 1, um es bei einem Nachbarn abzugeben, 2, um es im Depot zu lagern.',
    ar: '{{companyName}}: طردك {{trackingNumber}} في طريقه إليك اليوم، {{deliveryWindow}}. أرسل 1 لتركه عند جار، أو 2 لحفظه في المستودع.',
  },
  failed: {
    en: '{{companyName}}: we missed you. We could not deliver {{trackingNumber}}: {{reason}}. {{nextStep}} Reply 1 to leave it with a neighbour, 2 to hold it at the depot, or see {{trackingUrl}}',
    es: '{{companyName}}: no pudimos entregar {{trackingNumber}}: {{reason}}. {{nextStep}} Responda 1 para dejarlo con un vecino, 2 para guardarlo en el depósito, o vea {{trackingUrl}}',
    fr: '{{companyName}} : nous n’avons pas pu livrer {{trackingNumber}} : {{reason}}. {{nextStep}} Répondez 1 pour le laisser à un voisin, 2 pour le garder au dépôt, ou voyez {{trackingUrl}}',
    de: '{{companyName}}: Wir konnten {{trackingNumber}} nicht zustellen: {{reason}}. {{nextStep}} Antworten Sie 1 für einen Nachbarn, 2 für das Depot, oder siehe {{trackingUrl}}',
    ar: '{{companyName}}: لم نتمكن من تسليم {{trackingNumber}}: {{reason}}. {{nextStep}} أرسل 1 لتركه عند جار، أو 2 لحفظه في المستودع، أو راجع {{trackingUrl}}',
  },
  delivered: {
    en: '{{companyName}}: your parcel {{trackingNumber}} was delivered, received by {{receivedBy}}. {{trackingUrl}}',
    es: '{{companyName}}: su paquete {{trackingNumber}} fue entregado, recibido por {{receivedBy}}. {{trackingUrl}}',
    fr: '{{companyName}} : votre colis {{trackingNumber}} a été livré, reçu par {{receivedBy}}. {{trackingUrl}}',
    de: '{{companyName}}: Ihr Paket {{trackingNumber}} wurde zugestellt, angenommen von {{receivedBy}}. {{trackingUrl}}',
    ar: '{{companyName}}: تم تسليم طردك {{trackingNumber}}، استلمه {{receivedBy}}. {{trackingUrl}}',
  },
  dayBefore: {
    en: '{{companyName}}: your parcel {{trackingNumber}} arrives tomorrow, {{deliveryDay}}, {{deliveryWindow}}. Manage it: {{trackingUrl}}',
    es: '{{companyName}}: su paquete {{trackingNumber}} llega mañana, {{deliveryDay}}, {{deliveryWindow}}. Gestiónelo: {{trackingUrl}}',
    fr: '{{companyName}} : votre colis {{trackingNumber}} arrive demain, {{deliveryDay}}, {{deliveryWindow}}. Gérez-le : {{trackingUrl}}',
    de: '{{companyName}}: Ihr Paket {{trackingNumber}} kommt morgen, {{deliveryDay}}, {{deliveryWindow}}. Verwalten: {{trackingUrl}}',
    ar: '{{companyName}}: يصل طردك {{trackingNumber}} غدًا، {{deliveryDay}}، {{deliveryWindow}}. إدارته: {{trackingUrl}}',
  },
};

/** What happened that a text tells: a failed attempt's reason and next day, who received it. */
export type TextFacts = {
  reason?: string | null;
  nextAttemptDate?: string | null;
  receivedBy?: string | null;
};

function dayWords(day: string, language: TextLanguage) {
  return new Intl.DateTimeFormat(language, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

function timeWords(instant: string, language: TextLanguage, timeZone: string) {
  return new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone }).format(
    new Date(instant),
  );
}

/** A text template filled in for the parcel, in `language`, naming the company. */
export function composeText(
  template: string,
  language: TextLanguage,
  parcel: PlaceholderParcel,
  facts: TextFacts = {},
): string {
  const words = WORDS[language];
  const timeZone = recipientTimeZone(parcel);
  const window = expectedWindow(parcel, timeZone);
  const estimated = parcel.estimatedDelivery
    ? new Date(parcel.estimatedDelivery).toISOString().slice(0, 10)
    : null;
  const values: Record<(typeof TEXT_PLACEHOLDERS)[number], string> = {
    companyName: env.COMPANY_NAME,
    trackingNumber: parcel.trackingNumber,
    deliveryDay: estimated ? dayWords(estimated, language) : '',
    deliveryWindow: window
      ? words.window(
          window.from ? timeWords(window.from, language, timeZone) : null,
          timeWords(window.until, language, timeZone),
        )
      : words.noWindow,
    reason: words.reasons[(facts.reason ?? 'other') as FailureReason] ?? words.reasons.other,
    nextStep: facts.nextAttemptDate
      ? words.nextTry(dayWords(facts.nextAttemptDate, language))
      : words.noNextTry,
    receivedBy: facts.receivedBy?.trim() || words.someone,
    trackingUrl: trackingUrl(parcel.trackingNumber),
  };
  const text = template
    .replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in values ? values[name as keyof typeof values] : whole,
    )
    .replace(/[ \t]+/g, ' ')
    .trim();
  return text.includes(env.COMPANY_NAME) ? text : `${env.COMPANY_NAME}: ${text}`;
}

/** What a reply to a text is answered with, by what it did. */
export function replyText(
  outcome: 'neighbour' | 'depot' | 'closed' | 'stopped' | 'started',
  trackingNumber = '',
): string {
  const company = env.COMPANY_NAME;
  switch (outcome) {
    case 'neighbour':
      return `${company}: done. Your parcel ${trackingNumber} will be left with a neighbour.`;
    case 'depot':
      return `${company}: done. We will hold your parcel ${trackingNumber} at the depot for you to collect.`;
    case 'closed':
      return `${company}: your parcel ${trackingNumber} has already been delivered: nothing was changed.`;
    case 'stopped':
      return `${company}: you will get no more texts from us. Reply START to get them again.`;
    case 'started':
      return `${company}: you will get texts about your parcels again. Reply STOP to stop them.`;
  }
}
