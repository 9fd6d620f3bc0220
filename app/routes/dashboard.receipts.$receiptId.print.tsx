import { randomBytes } from 'node:crypto';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { escapeHtml } from '~/lib/html';
import { renderReceiptHtml } from '~/services/receipt-render.server';
import { requireStaffReceipt } from '~/http/receipt-pages.server';

/**
 * A print-ready page: the receipt document on its own, with a Print button. With JavaScript the
 * browser's print dialog opens by itself; without, the browser's own Print command does the job.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const receipt = await requireStaffReceipt(request, params.receiptId);
  // The server's policy already admits scripts with this request's nonce; this page's own policy,
  // stricter still, admits the same one.
  const nonce =
    typeof context.cspNonce === 'string' ? context.cspNonce : randomBytes(16).toString('base64');
  const toolbar = `<nav aria-label="Receipt actions" class="no-print" style="max-width:720px;margin:0 auto 16px;display:flex;gap:12px;align-items:center;justify-content:space-between">
  <a href="/dashboard/receipts" style="color:#1e40af">Back to receipts</a>
  <span style="display:flex;gap:12px;align-items:center">
    <noscript><span style="color:#4b5563;font-size:13px">Use your browser's Print command (Ctrl+P or Cmd+P).</span></noscript>
    <button type="button" id="print-receipt" style="background:#1e40af;color:#fff;border:0;border-radius:6px;padding:8px 16px;font-weight:bold;cursor:pointer">Print</button>
  </span>
</nav>`;
  const script = `<script nonce="${escapeHtml(nonce)}">
  document.getElementById('print-receipt').addEventListener('click', function () { window.print(); });
  window.addEventListener('load', function () { setTimeout(function () { window.print(); }, 100); });
</script>`;
  const html = renderReceiptHtml(receipt, undefined, {
    beforeReceipt: toolbar,
    afterReceipt: script,
  });
  return new Response(html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Content-Security-Policy': [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        `script-src 'nonce-${nonce}'`,
        "img-src 'self' data:",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
    },
  });
}
