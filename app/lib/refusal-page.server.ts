import { escapeHtml } from './html';

/**
 * A short page that says why no file was made, with the way back to the list: the answer of the
 * dashboard's file links (label sheets, exports) when the request cannot be met. They are opened as
 * plain links and form submissions, so the answer is a page a person reads, not JSON.
 */
export function refusalPage({
  status,
  title,
  message,
  back,
}: {
  status: number;
  title: string;
  message: string;
  back: string;
}) {
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; margin: 2rem; color: #111827">
<main>
<h1 style="font-size: 1.25rem">${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(back)}">Back to the parcels</a></p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' },
  });
}
