export { explainActionPattern, matchActionIds, type PlanFixRef } from '../../core/match.js';
