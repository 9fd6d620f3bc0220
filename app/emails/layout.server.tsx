import { Fragment, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { env } from '~/lib/env.server';
import { translator } from '~/lib/i18n.server';
import { languageDirection, SOURCE_LANGUAGE, type Language } from '~/schemas/languages';

/**
 * The company's branded wrapper around every e-mail, and the pieces the bodies share. Bodies are
 * React elements rendered to static markup, so whatever a visitor or staff member typed is
 * escaped on its way in; only an admin's template HTML (its placeholders already escaped) is
 * inserted as it is.
 */
export function renderEmailHtml(
  title: string,
  body: ReactNode,
  language: Language = SOURCE_LANGUAGE,
): string {
  const html = renderToStaticMarkup(
    <EmailLayout title={title} language={language}>
      {body}
    </EmailLayout>,
  );
  // A line per block: mail is sent quoted-printable, whose lines are cut at 76 characters, so
  // short lines keep a message's text readable in its source.
  return `<!doctype html>\n${html.replace(/<\/(p|h1|h2|tr|table)>/g, '</$1>\n')}`;
}

function EmailLayout({
  title,
  language,
  children,
}: {
  title: string;
  language: Language;
  children: ReactNode;
}) {
  const company = `${env.COMPANY_NAME} · ${env.COMPANY_PHONE} · ${env.COMPANY_EMAIL}`;
  return (
    <html lang={language} dir={languageDirection(language)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body
        style={{
          margin: 0,
          background: '#f3f4f6',
          fontFamily: 'Arial,Helvetica,sans-serif',
          color: '#111827',
        }}
      >
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: '16px 8px' }}>
                {/* Fluid: as wide as the screen up to 600 px, so a phone shows it without scrolling sideways. */}
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{ width: '100%', maxWidth: 600, background: '#ffffff', borderRadius: 8 }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{
                          background: '#1e40af',
                          color: '#ffffff',
                          padding: '20px 24px',
                          fontSize: 20,
                          fontWeight: 'bold',
                          borderRadius: '8px 8px 0 0',
                        }}
                      >
                        {env.COMPANY_NAME}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: 24, fontSize: 15, lineHeight: 1.5 }}>{children}</td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          padding: '16px 24px',
                          fontSize: 12,
                          color: '#6b7280',
                          borderTop: '1px solid #e5e7eb',
                        }}
                      >
                        {company}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

export function Heading({ size = 20, children }: { size?: number; children: ReactNode }) {
  return <h1 style={{ fontSize: size, margin: '0 0 16px' }}>{children}</h1>;
}

/** Plain text as paragraphs: a blank line starts a new one, a line break stays one. */
export function TextParagraphs({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n{2,}/).map((paragraph, i) => (
        <p key={i}>
          {paragraph.split('\n').map((line, j) => (
            <Fragment key={j}>
              {j > 0 ? <br /> : null}
              {line}
            </Fragment>
          ))}
        </p>
      ))}
    </>
  );
}

/** A link drawn as a button, and the address itself below it for mail programs without HTML. */
export function ButtonLink({
  href,
  children,
  language = SOURCE_LANGUAGE,
}: {
  href: string;
  children: ReactNode;
  language?: Language;
}) {
  return (
    <>
      <p style={{ margin: '0 0 16px' }}>
        <a
          href={href}
          style={{
            display: 'inline-block',
            background: '#1e40af',
            color: '#ffffff',
            padding: '10px 18px',
            borderRadius: 6,
            textDecoration: 'none',
            fontWeight: 'bold',
          }}
        >
          {children}
        </a>
      </p>
      <p style={{ fontSize: 13, color: '#6b7280' }}>
        {translator(language)('notification.orOpen')} <a href={href}>{href}</a>
      </p>
    </>
  );
}

/** The signature under every plain-text body. */
export function textSignature(): string[] {
  return ['--', env.COMPANY_NAME, `${env.COMPANY_PHONE} · ${env.COMPANY_EMAIL}`];
}

/** A message whose `<0>…</0>` part is drawn in bold (the words around it stay as translated). */
export function Strong({ message }: { message: string }) {
  return (
    <>
      {message
        .split(/<0>(.*?)<\/0>/)
        .map((part, i) => (i % 2 ? <strong key={i}>{part}</strong> : part))}
    </>
  );
}
