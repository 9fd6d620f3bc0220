import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { declared } from '~/http/api-operation.server';
import { fromTwilio, InboundTextSchema, readInboundText } from '~/http/sms-inbound.server';
import { receiveText } from '~/services/sms.server';

/**
 * What recipients text back, from the SMS provider: STOP and START (and their synonyms), and 1 or
 * 2 to a text that offered them. Public, for the provider, and refused unless signed.
 */
export const { loader, action } = apiRoute({
  POST: declared(
    {
      access: 'public',
      summary: 'Receive a text from a recipient',
      description:
        "The SMS provider's inbound webhook. STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT) stops every text to the number, START (or YES, UNSTOP, SUBSCRIBE) starts them again; 1 or 2 from the number a text offering them went to leaves that parcel with a neighbour or holds it at the depot (as the recipient's delivery preferences, with `parcel.delivery_preferences_updated`), and the recipient is texted that it was done; from any other number, or once the parcel is delivered, nothing changes. Twilio posts its form fields signed with X-Twilio-Signature (checked with the account's auth token from SMS_URL) and is answered with empty TwiML; Vonage posts its signed inbound message (`msisdn`, `to`, `text`, `timestamp`, `sig`; checked with its library and the signature secret SMS_INBOUND_SECRET, signed within 5 minutes); a generic gateway posts JSON `{from, to, body}` signed as our webhooks are (Standard Webhooks headers, the secret SMS_INBOUND_SECRET). An unsigned or wrongly signed text is 401 (invalid_signature).",
      readsBody: InboundTextSchema,
      bodyExample: { from: '+14155552671', to: '+14155550000', body: '1' },
      responses: { 200: 'SmsInboundResult' },
      errors: [401],
    },
    async ({ request }) => {
      const twilio = fromTwilio(request);
      const outcome = await receiveText(await readInboundText(request));
      if (twilio)
        return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', {
          headers: { 'Content-Type': 'text/xml' },
        });
      return json({ received: true, outcome });
    },
  ),
});
