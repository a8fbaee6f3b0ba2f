import type { CatalogueEntry } from '../model.js';

/** Guide 7.7: Discover shows no charts until the chart list is refreshed. */
export const discoverNoCharts: CatalogueEntry = {
  id: 'discover-no-charts',
  ref: '7.7',
  title: 'No charts in Discover',
  symptom: 'The Discover section of the chart store shows no charts.',
  cause: 'The chart list was not refreshed.',
  signatures: {
    errors: [],
    phrases: [
      'no charts in discover',
      'discover is empty',
      'chart store is empty',
      'charts not showing in discover',
      'discover section empty',
      'no charts shown',
      'charts not available in discover',
      'charts from the new helm repo not showing',
      'chart store shows no charts',
      // The platform's FAQ in its users' words: "No charts found in Charts Discover Section", "not able to
      // see any charts available" (docs/FAQs/devtron-troubleshoot.md §7).
      'no charts found in discover',
      'not able to see any charts',
    ],
    context: [
      'chart store',
      'discover',
      'charts',
      'app-sync-job',
      'app-sync-cronjob',
      'chart-sync',
    ],
    // In other words: the chart list is filled by a sync job (app-sync-job / app-sync-cronjob, the
    // chart-sync image), so a new repository's charts are missing until it runs. Sources:
    // devtron-labs/devtron#508 ("charts aren't available unless the app-sync-cronjob runs next"), #930 and
    // #935 (manual sync / refetch), #1863 (fresh install shows no charts until a refetch),
    // docs/FAQs/devtron-troubleshoot.md §7. The remedy is the refresh: charts still missing after it
    // (devtron-labs/devtron#4808, #5517) need something else.
    applied: ['refresh chart', 'refetch chart', 'refresh button', 'refetched the charts', 'refreshed the charts'],
    // Chart groups, the Discover page's saved sets of charts, are another list than the charts a refresh fills
    // (tune: devtron-labs/dashboard's "chart group is always showing empty", fixed in the dashboard's code).
    excludes: ['chart group'],
  },
  detector: {
    kind: 'notObservable',
    where: 'platform-ui',
    check: 'In the dashboard: Global Configuration > Chart Repositories > Refresh Chart, then look at Discover after 4 to 5 minutes.',
  },
  stages: [
    {
      id: 'refresh-charts',
      title: 'Refresh the chart list',
      steps: [
        { kind: 'manual', does: 'Refresh the charts', risk: 'read-only', items: ['Open Global Configuration > Chart Repositories and click Refresh Chart (top right).'] },
        { kind: 'wait', does: 'Wait for the chart list to refresh', risk: 'read-only', minutes: 5, reason: 'a chart refresh takes about 4 to 5 minutes (section 8)' },
        { kind: 'manual', does: 'Check Discover', risk: 'read-only', items: ['Open Discover again: the charts should be listed.'] },
      ],
    },
  ],
};
