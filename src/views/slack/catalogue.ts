import { helpView, listView, unknownEntryView } from '../../core/catalogue.js';
import { toBlocks } from './answer.js';
import type { Block } from './kit.js';

export { commandHelp } from '../../core/catalogue.js';

export const helpBlocks = (clusters: readonly string[], defaultCluster: string): Block[] => toBlocks(helpView(clusters, defaultCluster));
export const listBlocks = (): Block[] => toBlocks(listView());
export const unknownEntryBlocks = (typed: string, closest: readonly string[]): Block[] => toBlocks(unknownEntryView(typed, closest));
