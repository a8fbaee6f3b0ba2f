/**
 * Renders Block Kit to the plain text a person would read, so tests can assert on what the user sees
 * (`expect(blocksText(msg.blocks)).toContain('Restart git-sensor')`) instead of on block structure.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function textOf(value: unknown): string[] {
  return isObject(value) && typeof value.text === 'string' ? [value.text] : [];
}

function elementText(element: unknown): string[] {
  if (!isObject(element)) return [];
  if (element.type === 'image') return [];
  // Text objects carry `text` as a string; interactive elements carry it as a text object.
  if (typeof element.text === 'string') return [element.text];
  return [...textOf(element.text), ...textOf(element.placeholder)];
}

function richText(value: unknown): string[] {
  if (!isObject(value)) return [];
  if (typeof value.text === 'string') return [value.text];
  const parts = Array.isArray(value.elements) ? value.elements.flatMap(richText) : [];
  return parts.length > 0 ? [parts.join('')] : [];
}

function blockText(block: unknown): string[] {
  if (!isObject(block)) return [];
  const elements = Array.isArray(block.elements) ? block.elements : [];
  switch (block.type) {
    case 'header':
      return textOf(block.text);
    case 'section': {
      const fields = Array.isArray(block.fields) ? block.fields.flatMap(textOf) : [];
      return [...textOf(block.text), ...fields, ...elementText(block.accessory)];
    }
    case 'context':
    case 'actions':
      return elements.flatMap(elementText);
    case 'input':
      return [...textOf(block.label), ...textOf(block.hint)];
    case 'markdown':
      return typeof block.text === 'string' ? [block.text] : [];
    case 'rich_text':
      return elements.flatMap(richText);
    default:
      return [];
  }
}

/** All text of the blocks, one piece per line, in reading order. Accepts anything; non-blocks give ''. */
export function blocksText(blocks: unknown): string {
  return (Array.isArray(blocks) ? blocks.flatMap(blockText) : []).join('\n');
}
