import {
  DAY_BEFORE_JOB,
  DAY_BEFORE_PLANNING_JOB,
  dayBeforeEmailJob,
  dayBeforePlanningJob,
} from './day-before-emails.server';
import { EMAIL_JOB, emailJobHandler, type EmailKind } from './email-queue.server';
import {
  INQUIRY_ACKNOWLEDGEMENT_EMAIL,
  INQUIRY_EMAIL,
  inquiryAcknowledgementEmailKind,
  inquiryEmailKind,
  NEW_SUBSCRIBER_EMAIL,
  newSubscriberEmailKind,
} from './inquiries.server';
import { defineJob } from './jobs.server';
import { CARD_PAYMENT_EXPIRY_JOB, cardPaymentExpiryJob } from './card-payments.server';
import { ACCESS_EMAIL, accountAccessEmailKind } from './account-users.server';
import { NOTIFICATION_EMAIL, notificationEmailKind } from './notifications.server';
import {
  CONFIRM_EMAIL,
  parcelUpdateEmailKind,
  subscriptionConfirmEmailKind,
  UPDATE_EMAIL,
} from './parcel-subscriptions.server';
import { RECEIPT_EMAIL, receiptEmailKind } from './receipt-email.server';
import {
  STATEMENT_EMAIL,
  STATEMENT_PLANNING_JOB,
  statementEmailKind,
  statementPlanningJob,
} from './statements.server';
import { SMS_JOB } from './sms-queue.server';
import { textJob } from './sms.server';
import { WEBHOOK_JOB, webhookDeliveryJob } from './webhooks.server';

/**
 * Every kind of background job the app has, in one place. The server registers them at boot
 * (entry.server.tsx), before it answers a request or starts its worker; a test that runs jobs
 * registers them in its setup. Each kind's code lives with the service that queues it.
 */
export const EMAIL_KINDS: Record<string, EmailKind> = {
  [NOTIFICATION_EMAIL]: notificationEmailKind,
  [UPDATE_EMAIL]: parcelUpdateEmailKind,
  [CONFIRM_EMAIL]: subscriptionConfirmEmailKind,
  [RECEIPT_EMAIL]: receiptEmailKind,
  [INQUIRY_EMAIL]: inquiryEmailKind,
  [INQUIRY_ACKNOWLEDGEMENT_EMAIL]: inquiryAcknowledgementEmailKind,
  [NEW_SUBSCRIBER_EMAIL]: newSubscriberEmailKind,
  [ACCESS_EMAIL]: accountAccessEmailKind,
  [STATEMENT_EMAIL]: statementEmailKind,
};

export const JOB_KINDS = {
  [EMAIL_JOB]: emailJobHandler(EMAIL_KINDS),
  [SMS_JOB]: textJob,
  [WEBHOOK_JOB]: webhookDeliveryJob,
  [DAY_BEFORE_JOB]: dayBeforeEmailJob,
  [DAY_BEFORE_PLANNING_JOB]: dayBeforePlanningJob,
  [STATEMENT_PLANNING_JOB]: statementPlanningJob,
  [CARD_PAYMENT_EXPIRY_JOB]: cardPaymentExpiryJob,
};

export function registerJobKinds() {
  for (const [type, handler] of Object.entries(JOB_KINDS)) defineJob(type, handler);
}
