/**
 * Block Kit limits the fake Slack enforces, with reasons worded like Slack's own
 * (`must be less than 3001 characters [json-pointer:/blocks/0/text/text]`), so a product that would be
 * rejected by Slack is rejected in tests too. Only the limits the product can plausibly hit are checked;
 * unknown block and element types are accepted so the fake never rejects what Slack would take.
 */

/** Slack's published limits (see shared/platform-facts.md); exported so tests can build payloads at the edge. */
export const LIMITS = Object.freeze({
  blocksPerMessage: 50,
  blocksPerModal: 100,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  buttonText: 75,
  actionId: 255,
  buttonValue: 2000,
  buttonUrl: 3000,
  blockId: 255,
  actionsElements: 25,
  contextElements: 10,
  messageText: 40_000,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
  externalId: 255,
  responseUrlUses: 5,
  responseUrlWindowMs: 30 * 60 * 1000,
});

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Collects reasons while walking a payload; each reason carries the JSON pointer of the offending field. */
class Reasons {
  readonly list: string[] = [];
  add(reason: string, pointer: string): void {
    this.list.push(`${reason} [json-pointer:${pointer}]`);
  }
  maxLength(value: unknown, max: number, pointer: string): void {
    if (typeof value === 'string' && value.length > max) this.add(`must be less than ${max + 1} characters`, pointer);
  }
}

function checkTextObject(
  r: Reasons,
  value: unknown,
  pointer: string,
  max: number,
  only?: 'plain_text',
): void {
  if (!isObject(value)) {
    r.add('must provide an object', pointer);
    return;
  }
  const { type, text } = value;
  if (type !== 'plain_text' && type !== 'mrkdwn') {
    r.add('must be one of [plain_text, mrkdwn]', `${pointer}/type`);
    return;
  }
  if (only !== undefined && type !== only) r.add(`must be a ${only} text object`, `${pointer}/type`);
  if (typeof text !== 'string' || text.length === 0) {
    r.add('must be more than 0 characters', `${pointer}/text`);
    return;
  }
  r.maxLength(text, max, `${pointer}/text`);
}

function checkElement(r: Reasons, element: unknown, pointer: string): void {
  if (!isObject(element) || typeof element.type !== 'string') {
    r.add('must provide an element with a type', pointer);
    return;
  }
  r.maxLength(element.action_id, LIMITS.actionId, `${pointer}/action_id`);
  if (element.type !== 'button') return;
  checkTextObject(r, element.text, `${pointer}/text`, LIMITS.buttonText, 'plain_text');
  r.maxLength(element.value, LIMITS.buttonValue, `${pointer}/value`);
  r.maxLength(element.url, LIMITS.buttonUrl, `${pointer}/url`);
  if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
    r.add('must be one of [primary, danger]', `${pointer}/style`);
  }
}

/** action_id must be unique among the elements of one block. */
function checkUniqueActionIds(r: Reasons, elements: unknown[], pointer: string): void {
  const seen = new Set<string>();
  elements.forEach((element, i) => {
    const id = isObject(element) ? element.action_id : undefined;
    if (typeof id !== 'string') return;
    if (seen.has(id)) r.add(`duplicate action_id "${id}"`, `${pointer}/${i}/action_id`);
    seen.add(id);
  });
}

function checkElementList(r: Reasons, value: unknown, pointer: string, max: number): unknown[] {
  if (!Array.isArray(value) || value.length === 0) {
    r.add('must provide at least 1 item', pointer);
    return [];
  }
  if (value.length > max) r.add(`no more than ${max} items allowed`, pointer);
  return value;
}

function checkBlock(r: Reasons, block: Json, p: string): void {
  switch (block.type) {
    case 'section': {
      if (block.text === undefined && block.fields === undefined) {
        r.add('must provide either text or fields', p);
      }
      if (block.text !== undefined) checkTextObject(r, block.text, `${p}/text`, LIMITS.sectionText);
      if (block.fields !== undefined) {
        const fields = checkElementList(r, block.fields, `${p}/fields`, LIMITS.sectionFields);
        fields.forEach((f, i) => checkTextObject(r, f, `${p}/fields/${i}`, LIMITS.sectionFieldText));
      }
      if (block.accessory !== undefined) checkElement(r, block.accessory, `${p}/accessory`);
      return;
    }
    case 'header':
      checkTextObject(r, block.text, `${p}/text`, LIMITS.headerText, 'plain_text');
      return;
    case 'actions': {
      const elements = checkElementList(r, block.elements, `${p}/elements`, LIMITS.actionsElements);
      elements.forEach((e, i) => checkElement(r, e, `${p}/elements/${i}`));
      checkUniqueActionIds(r, elements, `${p}/elements`);
      return;
    }
    case 'context': {
      const elements = checkElementList(r, block.elements, `${p}/elements`, LIMITS.contextElements);
      elements.forEach((e, i) => {
        if (isObject(e) && e.type === 'image') return;
        checkTextObject(r, e, `${p}/elements/${i}`, LIMITS.sectionText);
      });
      return;
    }
    case 'input':
      checkTextObject(r, block.label, `${p}/label`, 2000, 'plain_text');
      checkElement(r, block.element, `${p}/element`);
      return;
    default:
      // divider, image, rich_text, markdown, …: nothing the product is likely to overrun.
      return;
  }
}

/**
 * Reasons a list of blocks would be rejected by Slack; empty when it would be accepted.
 * `pointer` is where the list sits in the request (`/blocks` for messages, `/view/blocks` for modals).
 */
export function blockKitErrors(blocks: unknown, maxBlocks: number, pointer = '/blocks'): string[] {
  const r = new Reasons();
  if (!Array.isArray(blocks)) {
    r.add('must provide an array', pointer);
    return r.list;
  }
  if (blocks.length > maxBlocks) r.add(`no more than ${maxBlocks} items allowed`, pointer);
  const blockIds = new Set<string>();
  blocks.forEach((block, i) => {
    const p = `${pointer}/${i}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      r.add('must provide an object with a type', p);
      return;
    }
    if (block.block_id !== undefined) {
      const id = block.block_id;
      if (typeof id !== 'string' || id.length === 0) r.add('must be a non-empty string', `${p}/block_id`);
      else {
        r.maxLength(id, LIMITS.blockId, `${p}/block_id`);
        if (blockIds.has(id)) r.add(`duplicate block_id "${id}"`, `${p}/block_id`);
        blockIds.add(id);
      }
    }
    checkBlock(r, block, p);
  });
  return r.list;
}

/** Reasons a modal view would be rejected by views.open / views.update / views.push. */
export function modalErrors(view: unknown): string[] {
  const r = new Reasons();
  if (!isObject(view)) {
    r.add('must provide an object', '/view');
    return r.list;
  }
  if (view.type !== 'modal') r.add('must be "modal"', '/view/type');
  checkTextObject(r, view.title, '/view/title', LIMITS.modalTitle, 'plain_text');
  if (view.submit !== undefined) checkTextObject(r, view.submit, '/view/submit', LIMITS.modalButton, 'plain_text');
  if (view.close !== undefined) checkTextObject(r, view.close, '/view/close', LIMITS.modalButton, 'plain_text');
  r.maxLength(view.private_metadata, LIMITS.privateMetadata, '/view/private_metadata');
  r.maxLength(view.callback_id, LIMITS.callbackId, '/view/callback_id');
  r.maxLength(view.external_id, LIMITS.externalId, '/view/external_id');
  return [...r.list, ...blockKitErrors(view.blocks ?? [], LIMITS.blocksPerModal, '/view/blocks')];
}
