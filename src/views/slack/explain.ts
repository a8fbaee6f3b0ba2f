import { explainView } from '../../core/catalogue.js';
import type { CatalogueEntry } from '../../catalogue/model.js';
import { toBlocks } from './answer.js';
import type { Block } from './kit.js';

/** An entry of the catalogue, explained: symptom, cause, versions, parameters, and every step. */
export const explainBlocks = (entry: CatalogueEntry): Block[] => toBlocks(explainView(entry));
