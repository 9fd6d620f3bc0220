import type { CompanyInfo } from '~/lib/env.server';
import { escapeHtml } from '~/lib/html';

/** The e-mail that opens a shipper's access: an invitation to an account, or a password reset. */
export function accountAccessEmail(
  kind: 'invite' | 'reset',
  { name, accountName, link }: { name: string; accountName: string; link: string },
  company: CompanyInfo,
) {
  const invite = kind === 'invite';
  const lead = invite
    ? `You have been invited to ${accountName}'s account at ${company.name}, where you can follow your parcels, their proof of delivery and your API keys. Choose your password here (the link works once, for 7 days):`
    : `Someone asked to reset the password of your ${company.name} account. Choose a new one here (the link works once, for 7 days); if it was not you, ignore this e-mail:`;
  return {
    subject: invite
      ? `You are invited to ${accountName}'s shipping account at ${company.name}`
      : `Choose a new password for ${company.name}`,
    text: [
      `Hello ${name || 'there'},`,
      '',
      lead,
      link,
      '',
      `${company.name} · ${company.phone} · ${company.email}`,
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(name || 'there')},</p><p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(link)}">${invite ? 'Choose your password' : 'Choose a new password'}</a></p><p>${escapeHtml(`${company.name} · ${company.phone} · ${company.email}`)}</p>`,
  };
}
