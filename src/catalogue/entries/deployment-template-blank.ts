import type { CatalogueEntry } from '../model.js';

/** Guide 7.27: a custom deployment chart without app-values.yaml leaves the template editor blank. */
export const deploymentTemplateBlank: CatalogueEntry = {
  id: 'deployment-template-blank',
  ref: '7.27',
  title: 'Advanced (YAML) and Basic (GUI) sections blank in Base Deployment Template',
  symptom: 'The Advanced (YAML) and Basic (GUI) sections of the Base Deployment Template are blank.',
  cause: 'The deployment chart lacks the file app-values.yaml.',
  signatures: {
    // The orchestrator's log when the chart it reads the template from has no app-values.yaml
    // (pkg/deployment/manifest/deploymentTemplate/chartRef/ChartRefService.go, GetAppOverrideForDefaultTemplate).
    errors: ['app-values.yaml', 'App values yaml file is missing'],
    phrases: ['base deployment template blank', 'deployment template is empty', 'advanced yaml section blank', 'basic gui section blank'],
    context: ['deployment template', 'chart', 'custom chart', 'release-values.yaml', 'deployment charts'],
    // In other words: an uploaded chart whose values file is values.yaml only leaves the editor without
    // values. Sources: docs/FAQs/devtron-troubleshoot.md §30 (blank Basic (GUI) and Advanced (YAML)
    // sections for a chart without app-values.yaml), devtron-labs/devtron#2398 ("values.yaml needs to be
    // renamed as app-values.yaml"), #5810 (the deployment chart doc).
  },
  detector: {
    kind: 'notObservable',
    where: 'chart-values',
    check: 'In the uploaded deployment chart: does it contain app-values.yaml?',
  },
  stages: [
    {
      id: 'add-values-file',
      title: 'Add app-values.yaml to the chart',
      steps: [{ kind: 'manual', does: 'Fix the chart', risk: 'read-only', items: ['Add app-values.yaml to the deployment chart, then upload the chart again.'] }],
    },
  ],
};
