import type { CatalogueEntry } from '../model.js';

/** Guide 7.11: CPU panels filter on image!='' and so show nothing. */
export const cpuGraphsEmpty: CatalogueEntry = {
  id: 'cpu-graphs-empty',
  ref: '7.11',
  title: 'CPU graphs empty while memory graphs show',
  symptom: 'The CPU graphs are empty while the memory graphs show data.',
  cause: "The CPU graph queries filter on image!=''.",
  // The platform's CPU graphs (App Details, its dashboard's panels and their query): another dashboard's "CPU usage"
  // panel (a monitoring mixin's) is not fixed by editing the platform's queries.
  subject: { names: ['cpu graph', 'cpu metrics', 'cpu panel', 'grafana', 'container_cpu_usage_seconds_total', 'image!='], platform: true },
  signatures: {
    errors: ["image!=''", 'image!=""'],
    phrases: ['cpu graphs empty', 'cpu graphs blank', 'cpu graph is empty', 'cpu usage not showing', 'memory graphs show but cpu', 'no cpu metrics on app details', 'cpu metrics are not showing but memory metrics are visible'],
    // In the guide's source's words: docs/FAQs/devtron-troubleshoot.md §12 ("CPU metrics are not showing but
    // memory metrics are visible in graphs"; remove image!="" from the CPU queries).
    context: ['cpu', 'grafana', 'container_cpu_usage_seconds_total', 'memory'],
    // The guide's fix as people say they did it ("I've already removed the label `image!=""`").
    // The guide's symptom is CPU empty while memory shows: a dashboard whose memory is empty too has lost its
    // metrics or its labels, not the CPU filter (tune: a docker-compose stack's board, another dashboard's N/A).
    excludes: ['cpu and memory', 'cpu & memory', 'memory usage graph (empty)', 'memory graph (empty)', 'memory graphs are empty', 'memory graph is empty', 'memory graphs are also empty', 'memory is empty too', 'neither cpu nor memory', 'no memory metrics'],
    applied: ['removed the label `image!=""`', 'removed `image!=""`', 'removed image!=""', "removed image!=''", 'removed the image!=""', 'removed the filter image!=""'],
  },
  // The CPU panels graph this metric; the store is asked whether the filter leaves any of its series.
  detector: { kind: 'cpuImageFilter', metric: 'container_cpu_usage_seconds_total' },
  stages: [
    {
      id: 'remove-filter',
      title: "Remove the image!='' filter from the CPU graphs",
      steps: [
        { kind: 'dashboardRemoveCpuFilter', does: "Remove the filter image!='' from the CPU panels' queries and save the dashboards", risk: 'destructive' },
        { kind: 'manual', does: 'Check the graphs', risk: 'read-only', items: ['Reload App Details: the CPU graphs should show data.'] },
      ],
    },
  ],
};
