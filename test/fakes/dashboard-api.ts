/**
 * The metrics dashboard the tests talk to: the simulated platform's own dashboard server
 * (src/cluster/sim/platform/dashboard), started alone with a password the test chooses.
 */
import { startDashboardServer, type DashboardServer, type DashboardServerOptions } from '../../src/cluster/sim/platform/dashboard/server.js';

export { DashboardState } from '../../src/cluster/sim/platform/dashboard/state.js';
export type { DashboardOrg as FakeOrg, StoredDashboard, StoredDataSource } from '../../src/cluster/sim/platform/dashboard/state.js';
export type { CallHook, RecordedDashboardCall } from '../../src/cluster/sim/platform/dashboard/server.js';

/** How a test sets up the dashboard. */
export type FakeDashboardOptions = DashboardServerOptions;
/** The running dashboard of a test. */
export type FakeDashboardApi = DashboardServer;

export const startFakeDashboardApi = (options: FakeDashboardOptions): Promise<FakeDashboardApi> => startDashboardServer(options);
