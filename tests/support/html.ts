import { parseHTML } from 'linkedom';

/** An HTML page as a document to query, as a browser has it before any script runs. */
export function parsePage(html: string): Document {
  return parseHTML(html).document as unknown as Document;
}

/** An element's text as it reads: white space collapsed, trimmed. */
export function textOf(node: Element | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The elements matching `selector` whose text reads `name` (a string matches in full). */
export function named(root: ParentNode, selector: string, name: string | RegExp): Element[] {
  return [...root.querySelectorAll(selector)].filter((node) => {
    const text = node.getAttribute('aria-label') ?? textOf(node);
    return typeof name === 'string' ? text === name : name.test(text);
  });
}

/**
 * The address a browser asks for when `value` is typed in the field labelled `label` and its GET
 * form is submitted with the button named `button` (the form's hidden fields go along).
 */
export function submitGetForm(
  document: Document,
  { label, value, button }: { label: string; value: string; button: string },
): string {
  const [labelNode] = named(document, 'label', label);
  const field = labelNode && document.getElementById(labelNode.getAttribute('for') ?? '');
  const form = field?.closest('form[method="get" i], form:not([method])');
  if (!field || !form) throw new Error(`No GET form with a field labelled ${label}`);
  if (named(form, 'button:not([type="button"])', button).length !== 1)
    throw new Error(`The form of ${label} has no ${button} button`);
  const query = new URLSearchParams();
  for (const hidden of form.querySelectorAll('input[type="hidden"][name]'))
    query.append(hidden.getAttribute('name')!, hidden.getAttribute('value') ?? '');
  query.append(field.getAttribute('name')!, value);
  return `${form.getAttribute('action') ?? ''}?${query}`;
}
