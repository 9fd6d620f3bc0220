import { Schema } from 'mongoose';
import { NOTIFICATION_TYPES, PARCEL_STATUSES, type ParcelStatus } from '~/schemas/constants';
import {
  DEFAULT_AUTOMATIC_RULES,
  DEFAULT_DAY_BEFORE_RULE,
  type AutomaticRule,
  type DayBeforeRule,
  type NotificationSettingsInput,
} from '~/schemas/notification-settings';
import { iso, registeredModel } from '~/lib/records.server';
import { env } from '~/lib/env.server';
import { TEXT_EVENTS, type TextEvent, type TextRules } from '~/schemas/texts';

/** The automatic e-mail rules: one document, each status's rule stored once an admin saves it. */
const settingsSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    rules: {
      type: [
        new Schema(
          {
            status: { type: String, enum: PARCEL_STATUSES, required: true },
            enabled: { type: Boolean, default: false },
            template: { type: String, enum: NOTIFICATION_TYPES, required: true },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
    // Stored once an admin saves it; DEFAULT_DAY_BEFORE_RULE until then.
    dayBefore: {
      type: new Schema(
        {
          enabled: { type: Boolean, default: false },
          template: { type: String, enum: NOTIFICATION_TYPES, required: true },
        },
        { _id: false },
      ),
      default: undefined,
    },
    // The automatic texts, by event, as an admin set them; unset: on once a provider is configured.
    texts: {
      type: new Schema(Object.fromEntries(TEXT_EVENTS.map((event) => [event, { type: Boolean }])), {
        _id: false,
      }),
      default: undefined,
    },
  },
  { timestamps: true },
);

export const NotificationSettings = registeredModel('NotificationSettings', settingsSchema);

const KEY = 'automatic-emails';

type LeanSettings = {
  rules?: Array<{ status: string; enabled?: boolean | null; template: string }> | null;
  dayBefore?: { enabled?: boolean | null; template: string } | null;
  texts?: Partial<Record<TextEvent, boolean | null>> | null;
  updatedAt?: Date | null;
};

function merge(doc: LeanSettings | null) {
  const stored = doc?.rules ?? [];
  const rules: AutomaticRule[] = DEFAULT_AUTOMATIC_RULES.map((rule) => {
    const saved = stored.find((r) => r.status === rule.status);
    return saved
      ? {
          status: rule.status,
          enabled: Boolean(saved.enabled),
          template: saved.template as AutomaticRule['template'],
        }
      : rule;
  });
  const dayBefore: DayBeforeRule = doc?.dayBefore
    ? {
        enabled: Boolean(doc.dayBefore.enabled),
        template: doc.dayBefore.template as DayBeforeRule['template'],
      }
    : DEFAULT_DAY_BEFORE_RULE;
  const texts = Object.fromEntries(
    TEXT_EVENTS.map((event) => [event, doc?.texts?.[event] ?? Boolean(env.SMS_URL)]),
  ) as TextRules;
  return {
    rules,
    dayBefore,
    texts,
    updatedAt: iso(doc?.updatedAt),
  };
}

export type NotificationSettingsRecord = ReturnType<typeof merge>;

/** The document of a shipper account's own automatic texts (only `texts`, where it differs). */
function accountKey(accountId: string) {
  return `account:${accountId}`;
}

/**
 * The automatic e-mail and text rules; with `accountId`, the texts as they are for that account's
 * parcels: its own choice for an event where it made one, else the company's.
 */
export async function getNotificationSettings(
  accountId?: string | null,
): Promise<NotificationSettingsRecord> {
  const company = merge(await NotificationSettings.findOne({ key: KEY }).lean<LeanSettings>());
  if (!accountId) return company;
  const own = await NotificationSettings.findOne({
    key: accountKey(accountId),
  }).lean<LeanSettings>();
  const texts = Object.fromEntries(
    TEXT_EVENTS.map((event) => [event, own?.texts?.[event] ?? company.texts[event]]),
  ) as TextRules;
  return { ...company, texts };
}

/** Saves the rules given; the statuses not given keep their rule, as does the day before's. */
export async function saveNotificationSettings(
  input: NotificationSettingsInput,
): Promise<NotificationSettingsRecord> {
  if (input.accountId) return saveAccountTexts(input.accountId, input.texts ?? {});
  const current = await getNotificationSettings();
  // Nothing to change: nothing is written.
  const texts = Object.entries(input.texts ?? {}).filter(([, on]) => on !== undefined);
  if (input.rules.length === 0 && !input.dayBefore && !texts.length) return current;
  const rules = current.rules.map(
    (rule) => input.rules.find((r) => r.status === rule.status) ?? rule,
  );
  const doc = await NotificationSettings.findOneAndUpdate(
    { key: KEY },
    {
      $set: {
        rules,
        ...(input.dayBefore ? { dayBefore: input.dayBefore } : {}),
        ...Object.fromEntries(texts.map(([event, on]) => [`texts.${event}`, on])),
      },
    },
    { upsert: true, returnDocument: 'after' },
  ).lean<LeanSettings>();
  return merge(doc);
}

/** A shipper account's own automatic texts: the events given, on or off for its parcels. */
async function saveAccountTexts(accountId: string, input: Partial<Record<TextEvent, boolean>>) {
  const texts = Object.entries(input).filter(([, on]) => on !== undefined);
  if (texts.length)
    await NotificationSettings.updateOne(
      { key: accountKey(accountId) },
      { $set: Object.fromEntries(texts.map(([event, on]) => [`texts.${event}`, on])) },
      { upsert: true },
    );
  return getNotificationSettings(accountId);
}

/** The day-before e-mail's rule, when it is on. */
export async function dayBeforeRule(): Promise<DayBeforeRule | null> {
  const { dayBefore } = await getNotificationSettings();
  return dayBefore.enabled ? dayBefore : null;
}

/** Whether the automatic text of `event` is on. */
export async function textRuleOn(event: TextEvent, accountId?: string | null): Promise<boolean> {
  const { texts } = await getNotificationSettings(accountId);
  return texts[event];
}

export async function automaticRuleFor(status: ParcelStatus): Promise<AutomaticRule | null> {
  const { rules } = await getNotificationSettings();
  const rule = rules.find((r) => r.status === status);
  return rule?.enabled ? rule : null;
}
