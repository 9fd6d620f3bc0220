import { buildOpenApiDocument, routePath, type ApiRouteModule } from '~/http/openapi.server';
import { env } from '~/lib/env.server';
import { loader as accountsIdStatementsMonth } from './routes/api.accounts.$id.statements.$month';
import { loader as accountsIdStatementsMonthAdjustments } from './routes/api.accounts.$id.statements.$month.adjustments';
import { loader as accountsIdStatementsMonthPayments } from './routes/api.accounts.$id.statements.$month.payments';
import { loader as accountsIdApiKeys } from './routes/api.accounts.$id.api-keys';
import { loader as accountsIdUsers } from './routes/api.accounts.$id.users';
import { loader as accountsId } from './routes/api.accounts.$id';
import { loader as accounts } from './routes/api.accounts';
import { loader as apiKeysId } from './routes/api.api-keys.$id';
import { loader as apiKeys } from './routes/api.api-keys';
import { loader as audit } from './routes/api.audit';
import { loader as authLogin } from './routes/api.auth.login';
import { loader as authLogout } from './routes/api.auth.logout';
import { loader as authMe } from './routes/api.auth.me';
import { loader as authPassword } from './routes/api.auth.password';
import { loader as dashboardRecentParcels } from './routes/api.dashboard.recent-parcels';
import { loader as dashboardRecentTracking } from './routes/api.dashboard.recent-tracking';
import { loader as dashboardStats } from './routes/api.dashboard.stats';
import { loader as docs } from './routes/api.docs';
import { loader as depotsId } from './routes/api.depots.$id';
import { loader as depots } from './routes/api.depots';
import { loader as health } from './routes/api.health';
import { loader as notificationSettings } from './routes/api.notification-settings';
import { loader as notificationTemplatesId } from './routes/api.notification-templates.$id';
import { loader as notificationTemplates } from './routes/api.notification-templates';
import { loader as notificationsIdRetry } from './routes/api.notifications.$id.retry';
import { loader as notificationsId } from './routes/api.notifications.$id';
import { loader as notifications } from './routes/api.notifications';
import { loader as openapiJson } from './routes/api.openapi[.]json';
import { loader as parcelsIdLabelPdf } from './routes/api.parcels.$id.label[.]pdf';
import { loader as parcelsIdProofOfDeliveryProofIdPdf } from './routes/api.parcels.$id.proof-of-delivery.$proofId[.]pdf';
import { loader as parcelsIdProofOfDelivery } from './routes/api.parcels.$id.proof-of-delivery';
import { loader as parcelsIdReopen } from './routes/api.parcels.$id.reopen';
import { loader as parcelsId } from './routes/api.parcels.$id';
import { loader as parcelsExportCsv } from './routes/api.parcels.export[.]csv';
import { loader as parcelsImport } from './routes/api.parcels.import';
import { loader as parcels } from './routes/api.parcels';
import { loader as proofOfDeliveryFilesFileId } from './routes/api.proof-of-delivery.files.$fileId';
import { loader as quotes } from './routes/api.quotes';
import { loader as rates } from './routes/api.rates';
import { loader as receiptsId } from './routes/api.receipts.$id';
import { loader as receiptsGenerateParcelId } from './routes/api.receipts.generate.$parcelId';
import { loader as receipts } from './routes/api.receipts';
import { loader as reportsDeliveryPerformance } from './routes/api.reports.delivery-performance';
import { loader as pickupsIdOutcome } from './routes/api.pickups.$id.outcome';
import { loader as pickupsId } from './routes/api.pickups.$id';
import { loader as pickups } from './routes/api.pickups';
import { loader as runsIdStart } from './routes/api.runs.$id.start';
import { loader as runsId } from './routes/api.runs.$id';
import { loader as runs } from './routes/api.runs';
import { loader as scans } from './routes/api.scans';
import { loader as testParcelsIdAdvance } from './routes/api.test.parcels.$id.advance';
import { loader as smsInbound } from './routes/api.sms.inbound';
import { loader as stripeWebhook } from './routes/api.stripe.webhook';
import { loader as trackingParcelIdEvents } from './routes/api.tracking.$parcelId.events';
import { loader as trackingEventsId } from './routes/api.tracking.events.$id';
import { loader as trackingTrackTrackingNumberDeliveryPreferences } from './routes/api.tracking.track.$trackingNumber.delivery-preferences';
import { loader as trackingTrackTrackingNumberSubscriptions } from './routes/api.tracking.track.$trackingNumber.subscriptions';
import { loader as trackingTrackTrackingNumber } from './routes/api.tracking.track.$trackingNumber';
import { loader as trackingTrack } from './routes/api.tracking.track';
import { loader as usersIdDisable } from './routes/api.users.$id.disable';
import { loader as usersIdEnable } from './routes/api.users.$id.enable';
import { loader as usersId } from './routes/api.users.$id';
import { loader as users } from './routes/api.users';
import { loader as webhooksIdDeliveriesDeliveryIdRedeliver } from './routes/api.webhooks.$id.deliveries.$deliveryId.redeliver';
import { loader as webhooksIdDeliveries } from './routes/api.webhooks.$id.deliveries';
import { loader as webhooksId } from './routes/api.webhooks.$id';
import { loader as webhooks } from './routes/api.webhooks';

/**
 * Every route module of the JSON API, by its file under app/routes (the catch-all for unknown
 * paths aside): the OpenAPI document is assembled from their declarations, so a route is documented
 * as it is declared and nowhere else. The bundler has no way to list a folder, hence these imports;
 * tests/integration/openapi.test.ts fails for a route file that is missing here.
 */
export function apiRoutes(): ApiRouteModule[] {
  // Read when asked, not at load: this module and the document's own route import each other.
  const routes = [
    ['api.accounts.$id.statements.$month.ts', accountsIdStatementsMonth],
    ['api.accounts.$id.statements.$month.adjustments.ts', accountsIdStatementsMonthAdjustments],
    ['api.accounts.$id.statements.$month.payments.ts', accountsIdStatementsMonthPayments],
    ['api.accounts.$id.api-keys.ts', accountsIdApiKeys],
    ['api.accounts.$id.ts', accountsId],
    ['api.accounts.$id.users.ts', accountsIdUsers],
    ['api.accounts.ts', accounts],
    ['api.api-keys.$id.ts', apiKeysId],
    ['api.api-keys.ts', apiKeys],
    ['api.audit.ts', audit],
    ['api.auth.login.ts', authLogin],
    ['api.auth.logout.ts', authLogout],
    ['api.auth.me.ts', authMe],
    ['api.auth.password.ts', authPassword],
    ['api.dashboard.recent-parcels.ts', dashboardRecentParcels],
    ['api.dashboard.recent-tracking.ts', dashboardRecentTracking],
    ['api.dashboard.stats.ts', dashboardStats],
    ['api.docs.tsx', docs],
    ['api.depots.$id.ts', depotsId],
    ['api.depots.ts', depots],
    ['api.health.ts', health],
    ['api.notification-settings.ts', notificationSettings],
    ['api.notification-templates.$id.ts', notificationTemplatesId],
    ['api.notification-templates.ts', notificationTemplates],
    ['api.notifications.$id.retry.ts', notificationsIdRetry],
    ['api.notifications.$id.ts', notificationsId],
    ['api.notifications.ts', notifications],
    ['api.openapi[.]json.ts', openapiJson],
    ['api.parcels.$id.label[.]pdf.ts', parcelsIdLabelPdf],
    ['api.parcels.$id.proof-of-delivery.$proofId[.]pdf.ts', parcelsIdProofOfDeliveryProofIdPdf],
    ['api.parcels.$id.proof-of-delivery.ts', parcelsIdProofOfDelivery],
    ['api.parcels.$id.reopen.ts', parcelsIdReopen],
    ['api.parcels.$id.ts', parcelsId],
    ['api.parcels.export[.]csv.ts', parcelsExportCsv],
    ['api.parcels.import.ts', parcelsImport],
    ['api.parcels.ts', parcels],
    ['api.proof-of-delivery.files.$fileId.ts', proofOfDeliveryFilesFileId],
    ['api.quotes.ts', quotes],
    ['api.rates.ts', rates],
    ['api.receipts.$id.ts', receiptsId],
    ['api.receipts.generate.$parcelId.ts', receiptsGenerateParcelId],
    ['api.receipts.ts', receipts],
    ['api.reports.delivery-performance.ts', reportsDeliveryPerformance],
    ['api.pickups.$id.outcome.ts', pickupsIdOutcome],
    ['api.pickups.$id.ts', pickupsId],
    ['api.pickups.ts', pickups],
    ['api.runs.$id.start.ts', runsIdStart],
    ['api.runs.$id.ts', runsId],
    ['api.runs.ts', runs],
    ['api.scans.ts', scans],
    ['api.test.parcels.$id.advance.ts', testParcelsIdAdvance],
    ['api.sms.inbound.ts', smsInbound],
    ['api.stripe.webhook.ts', stripeWebhook],
    ['api.tracking.$parcelId.events.ts', trackingParcelIdEvents],
    ['api.tracking.events.$id.ts', trackingEventsId],
    [
      'api.tracking.track.$trackingNumber.delivery-preferences.ts',
      trackingTrackTrackingNumberDeliveryPreferences,
    ],
    [
      'api.tracking.track.$trackingNumber.subscriptions.ts',
      trackingTrackTrackingNumberSubscriptions,
    ],
    ['api.tracking.track.$trackingNumber.ts', trackingTrackTrackingNumber],
    ['api.tracking.track.ts', trackingTrack],
    ['api.users.$id.disable.ts', usersIdDisable],
    ['api.users.$id.enable.ts', usersIdEnable],
    ['api.users.$id.ts', usersId],
    ['api.users.ts', users],
    [
      'api.webhooks.$id.deliveries.$deliveryId.redeliver.ts',
      webhooksIdDeliveriesDeliveryIdRedeliver,
    ],
    ['api.webhooks.$id.deliveries.ts', webhooksIdDeliveries],
    ['api.webhooks.$id.ts', webhooksId],
    ['api.webhooks.ts', webhooks],
  ] as const;
  return routes.map(([file, entry]) => ({ file, entry }));
}

let cached: Record<string, unknown> | null = null;

/**
 * The document, naming as its server PUBLIC_URL, or else the origin the request came to (so
 * that "try it" tools and generated clients point at the right place). Built at the first
 * request, once every route module has loaded.
 */
export function openApiDocument(origin?: string): Record<string, unknown> {
  cached ??= buildOpenApiDocument(apiRoutes());
  return { ...cached, servers: [{ url: env.PUBLIC_URL ?? origin ?? '/' }] };
}

/** Each operation's method and path, as the document lists them. */
export const apiOperationList = () =>
  apiRoutes().flatMap(({ file, entry }) =>
    Object.keys(entry.operations).map((method) => ({
      method: method.toLowerCase(),
      path: routePath(file),
    })),
  );
