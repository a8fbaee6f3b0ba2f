import { auditView } from '../../core/audit.js';
import type { AuditRecord } from '../../jobs/audit.js';
import { toBlocks } from './answer.js';
import type { Block } from './kit.js';

/** The newest records of the audit trail, within Slack's limits. */
export const auditBlocks = (records: readonly AuditRecord[], clusters?: readonly string[]): Block[] => toBlocks(auditView(records, clusters));
