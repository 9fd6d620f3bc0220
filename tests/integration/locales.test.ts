import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR, NAMESPACES } from '~/lib/i18n.server';
import { LANGUAGE_CODES, SOURCE_LANGUAGE } from '~/schemas/languages';
import { TEMPLATE_PLACEHOLDERS, unknownPlaceholders } from '~/schemas/notification-template';

/**
 * Every language says everything English says, and nothing else: the same keys in every file, and
 * in each message the same ICU arguments, the same tags (`<0>…</0>` for links and emphasis) and,
 * in the e-mail templates, the same known `{{placeholders}}`. Each language is checked against
 * English, and English against each language.
 */

type Bundle = Record<string, unknown>;

function flatten(bundle: Bundle, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(bundle)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object')
      for (const [k, v] of flatten(value as Bundle, name)) flat.set(k, v);
    else flat.set(name, String(value));
  }
  return flat;
}

/** What a message needs filled in: its ICU arguments and its tags, sorted. */
function argumentsOf(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if ('value' in element && element.type !== TYPE.literal) found.add(String(element.value));
      if ('options' in element)
        for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  // Tags (<0>…</0>) are React's components (react-i18next's Trans), read apart from ICU.
  walk(parse(message, { ignoreTag: true }));
  for (const tag of message.matchAll(/<(\/?\w+)>/g)) found.add(`<${tag[1]}>`);
  return [...found].sort();
}

/** `{{placeholders}}` of an e-mail template, sorted. */
function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((m) => m[1]!))].sort();
}

/** Everything in `other` that differs from `source`: missing and extra keys, other arguments. */
export function localeProblems(
  namespace: string,
  source: Bundle,
  other: Bundle,
  language: string,
): string[] {
  const problems: string[] = [];
  const want = flatten(source);
  const have = flatten(other);
  const read = namespace === 'templates' ? placeholdersOf : argumentsOf;
  for (const key of want.keys())
    if (!have.has(key)) problems.push(`${language}/${namespace}: missing ${key}`);
  for (const [key, message] of have) {
    const english = want.get(key);
    if (english === undefined) {
      problems.push(`${language}/${namespace}: extra ${key}`);
      continue;
    }
    let mine: string[];
    try {
      mine = read(message);
    } catch (error) {
      problems.push(`${language}/${namespace}: ${key} does not parse (${String(error)})`);
      continue;
    }
    if (JSON.stringify(mine) !== JSON.stringify(read(english)))
      problems.push(
        `${language}/${namespace}: ${key} has ${mine.join(', ') || 'nothing'} where English has ${read(english).join(', ') || 'nothing'}`,
      );
    if (namespace === 'templates' && unknownPlaceholders(message).length)
      problems.push(`${language}/${namespace}: ${key} has an unknown placeholder`);
  }
  return problems;
}

const read = (language: string, namespace: string): Bundle =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, `${namespace}.json`), 'utf8'));

describe('the messages of every language', () => {
  it('each language has a folder with every namespace, and no folder is left out', () => {
    expect(fs.readdirSync(LOCALES_DIR).sort()).toEqual([...LANGUAGE_CODES].sort());
    for (const language of LANGUAGE_CODES)
      for (const namespace of NAMESPACES)
        expect(fs.existsSync(path.join(LOCALES_DIR, language, `${namespace}.json`))).toBe(true);
  });

  it.each(NAMESPACES.flatMap((ns) => LANGUAGE_CODES.map((language) => [ns, language] as const)))(
    '%s in %s: the same keys and the same placeholders as English',
    (namespace, language) => {
      expect(
        localeProblems(
          namespace,
          read(SOURCE_LANGUAGE, namespace),
          read(language, namespace),
          language,
        ),
      ).toEqual([]);
    },
  );

  it('the templates use only the placeholders the server fills in', () => {
    const used = new Set(
      [...flatten(read(SOURCE_LANGUAGE, 'templates')).values()].flatMap(placeholdersOf),
    );
    expect(
      [...used].every((name) => (TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)),
    ).toBe(true);
  });

  it('finds a key removed from one language, one added, and a placeholder renamed', () => {
    const english = read(SOURCE_LANGUAGE, 'public');
    const spanish = structuredClone(read('es', 'public')) as Record<
      string,
      Record<string, unknown>
    >;
    delete spanish.track!.title;
    spanish.track!.extra = 'Sobra';
    spanish.result!.receivedBy = 'Recibido por {nombre}';
    expect(localeProblems('public', english, spanish, 'es')).toEqual([
      'es/public: missing track.title',
      'es/public: extra track.extra',
      'es/public: result.receivedBy has nombre where English has name',
    ]);
    const templates = structuredClone(read('fr', 'templates')) as Record<
      string,
      Record<string, string>
    >;
    templates['Status Update']!.subject = 'Colis {{numero}}';
    expect(
      localeProblems('templates', read(SOURCE_LANGUAGE, 'templates'), templates, 'fr'),
    ).toEqual([
      'fr/templates: Status Update.subject has numero where English has trackingNumber',
      'fr/templates: Status Update.subject has an unknown placeholder',
    ]);
  });
});
