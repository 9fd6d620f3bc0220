import type { OutboxEntry, OutboxSent } from '~/utils/outbox';

/** Whose action it is: the parcel's tracking number, or the pickup and whose it is. */
function Subject({ trackingNumber, pickup }: Pick<OutboxEntry, 'trackingNumber' | 'pickup'>) {
  return pickup ? (
    <>Pickup from {pickup.accountName}</>
  ) : (
    <span className="font-mono">{trackingNumber}</span>
  );
}

/**
 * What the phone keeps for a weak connection: the scans and stops' outcomes waiting to be sent,
 * in the order made, and what each said once sent; before any, once the page can keep them
 * (`ready`), a line that says so.
 */
export function OutboxStatus({
  waiting,
  sent,
  ready,
}: {
  waiting: OutboxEntry[];
  sent: OutboxSent[];
  ready: boolean;
}) {
  if (!waiting.length && !sent.length)
    return ready ? (
      <p className="text-sm text-gray-600">
        Without a connection, this phone keeps what you record and sends it once it is back.
      </p>
    ) : null;
  return (
    <section
      aria-labelledby="outbox-heading"
      className="card space-y-2 border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="outbox-heading" aria-live="polite" className="font-semibold text-gray-900">
        {waiting.length ? `Waiting to send — ${waiting.length}` : 'Everything is sent'}
      </h2>
      {waiting.length ? (
        <ol aria-label="Waiting to send" className="list-decimal pl-5 text-sm text-gray-800">
          {waiting.map((entry) => (
            <li key={entry.key}>
              <Subject {...entry} /> · {entry.what}
            </li>
          ))}
        </ol>
      ) : null}
      {sent.length ? (
        <ul aria-label="Sent" className="text-sm text-gray-800">
          {sent.map((one, i) => (
            <li key={`${one.pickup?.id ?? one.trackingNumber}-${i}`}>
              <Subject {...one} /> · {one.what}:{' '}
              {one.refused ? `not recorded: ${one.refused}` : 'sent'}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
