import { catalogue } from '../catalogue/index.js';
import { detectorProblems } from './detectors/registry.js';

/**
 * The doctor as the worker and the CLI use it. The catalogue's detectors are checked against their
 * kinds here, where the kinds are loaded anyway (checking them when the catalogue loads would load
 * the Kubernetes client into every `match` and `explain`): a detector its kind refuses stops the
 * worker at start-up.
 */
const problems = detectorProblems(catalogue);
if (problems.length > 0) throw new Error(`The catalogue's detectors are inconsistent:\n${problems.join('\n')}`);

export { scan, type DoctorReport, type Finding } from './scan.js';
export { verifyEntry, type Verification } from './verify.js';
export { doctorReportSchema, verificationSchema } from './report-schema.js';
export type { Evidence } from './detectors/detector.js';
