import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUserWithRole } from '~/http/auth.server';
import { fileResponse } from '~/lib/http-cache.server';
import { refusalPage } from '~/lib/refusal-page.server';
import { runSheetPdf } from '~/services/runs.server';

/** GET /dashboard/dispatch/:runId/sheet.pdf → the run's sheet: its stops in order, with barcodes. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'courier');
  const sheet = await runSheetPdf(params.runId ?? '');
  if (!sheet)
    return refusalPage({
      status: 404,
      title: 'No run sheet',
      message: 'This run no longer exists.',
      back: '/dashboard/dispatch',
    });
  return fileResponse(new Uint8Array(sheet.pdf), {
    contentType: 'application/pdf',
    filename: `run-${sheet.run.date}.pdf`,
    inline: true,
  });
}
