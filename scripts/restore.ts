/**
 * Loads a backup made by `npm run backup` into the app's database:
 *
 *   npm run restore -- backup.gz [--drop]
 *
 * The database must hold no documents; `--drop` drops the collections that do first. See
 * scripts/backup.ts for the file format and what the restore does.
 */
import { restoreMain } from './backup';

restoreMain().then((code) => process.exit(code));
