import fs from 'node:fs';
import path from 'node:path';
import { E2E_DIR, E2E_SMTP_PORT } from '../../../playwright.config';
import { startTestSmtpServer } from '../../support/smtp';

/**
 * A real SMTP server for the app under test. Accepted messages land in E2E_DIR/mail as .eml;
 * it refuses a recipient while E2E_DIR/smtp-reject/<address> exists.
 */
export default async function globalSetup() {
  fs.rmSync(path.join(E2E_DIR, 'mail'), { recursive: true, force: true });
  fs.rmSync(path.join(E2E_DIR, 'smtp-reject'), { recursive: true, force: true });
  const smtp = await startTestSmtpServer({
    port: E2E_SMTP_PORT,
    reject: path.join(E2E_DIR, 'smtp-reject'),
    saveDir: path.join(E2E_DIR, 'mail'),
  });
  return async () => {
    await smtp.stop();
  };
}
