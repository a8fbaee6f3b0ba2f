/**
 * Other products: names of software that writes errors like the platform's (registries, CI servers,
 * proxies, databases, identity providers, other deployment tools and self-hosted applications) but is
 * neither the platform nor one of its components. A paste that names one of these and never the
 * platform is about that product: a remedy that acts only on the platform is not for it (subject.ts).
 *
 * Written from general knowledge of the cloud-native and self-hosting landscape. Left out on purpose:
 * the platform's own components (Argo CD, Argo Rollouts, NATS, Grafana, Prometheus, metrics-server,
 * ingress-nginx, PostgreSQL, kubewatch, dex, git-sensor), the places it runs (clouds, Kubernetes
 * distributions, git hosts), whose naming says nothing about whose problem it is, and names that are
 * also ordinary English words (vault, envoy, flux, tempo, airflow, discourse…), which would read prose
 * as a product.
 */
const single = [
  // registries and artifact stores
  'harbor', 'nexus', 'artifactory', 'jfrog', 'verdaccio', 'chartmuseum', 'kubeapps', 'sonatype',
  // CI servers and build services
  'jenkins', 'teamcity', 'bamboo', 'woodpecker', 'concourse', 'buildkite', 'circleci', 'travis', 'gitpod', 'codespaces', 'tekton', 'spinnaker', 'gocd', 'semaphoreci', 'appveyor', 'codefresh', 'skaffold', 'kaniko', 'buildah',
  // other deployment and GitOps tools, platforms and PaaS
  'fluxcd', 'rancher', 'portainer', 'openshift', 'okd', 'dokku', 'coolify', 'caprover', 'heroku', 'kubesphere', 'kubefirst', 'qovery', 'epinio', 'kubevela', 'crossplane', 'backstage', 'humanitec', 'awx', 'ansible', 'terraform', 'pulumi', 'kops', 'kubespray', 'juju', 'nomad', 'mesos', 'octant', 'k9s', 'keptn', 'kustomize',
  // proxies, gateways and load balancers other than the platform's ingress controller
  'traefik', 'haproxy', 'istio', 'linkerd', 'caddy', 'httpd', 'squid', 'varnish', 'cloudflared', 'tyk', 'apisix', 'gloo', 'oauth2-proxy', 'pomerium', 'authelia',
  // databases and brokers other than the platform's
  'mysql', 'mariadb', 'mongodb', 'cassandra', 'cockroachdb', 'yugabyte', 'yugabytedb', 'tidb', 'clickhouse', 'couchdb', 'couchbase', 'neo4j', 'influxdb', 'timescaledb', 'elasticsearch', 'opensearch', 'kibana', 'kafka', 'rabbitmq', 'activemq', 'zookeeper', 'vitess', 'supabase', 'hasura', 'prisma', 'knex', 'sequelize', 'typeorm', 'flyway', 'liquibase', 'alembic', 'pgbouncer', 'pgpool', 'patroni', 'stolon', 'zalando', 'cloudnativepg',
  // identity, secrets and security
  'keycloak', 'okta', 'auth0', 'authentik', 'zitadel', 'openbao', 'kyverno', 'falco', 'neuvector', 'twistlock', 'sysdig', 'snyk', 'sonarqube', 'sonarcloud',
  // observability products other than the platform's
  'datadog', 'newrelic', 'dynatrace', 'splunk', 'jaeger', 'zipkin', 'thanos', 'mimir', 'victoriametrics', 'zabbix', 'nagios', 'icinga', 'netdata', 'graylog', 'fluentd', 'fluentbit', 'logstash', 'signoz', 'kiali', 'botkube', 'robusta', 'k8sgpt',
  // applications people self-host
  'odoo', 'nextcloud', 'owncloud', 'wordpress', 'drupal', 'joomla', 'magento', 'mastodon', 'mattermost', 'rocketchat', 'jitsi', 'gitea', 'forgejo', 'gogs', 'sourcegraph', 'metabase', 'redash', 'kubeflow', 'mlflow', 'jupyterhub', 'minio', 'longhorn', 'openebs', 'velero', 'zammad', 'n8n', 'strapi', 'moodle', 'nocodb', 'appsmith', 'budibase', 'posthog', 'matomo', 'openfaas', 'knative', 'kubeless', 'dapr',
  // hosting panels, appliances and home servers, and applications people run on them
  'hestiacp', 'hestia', 'cpanel', 'plesk', 'webmin', 'cyberpanel', 'proxmox', 'truenas', 'unraid', 'synology', 'qnap', 'pfsense', 'opnsense', 'homeassistant', 'pihole', 'pi-hole',
  'immich', 'jellyfin', 'emby', 'vaultwarden', 'bitwarden', 'photoprism', 'seafile', 'bookstack', 'wikijs', 'superset', 'airbyte', 'dagster', 'posthog', 'matomo', 'jira', 'confluence',
  // serverless, gateways, cost and cluster tools, security agents and desktop git clients
  'knative', 'openfaas', 'openhab', 'dapr', 'kong', 'emissary', 'kubecost', 'opencost', 'headlamp', 'octarine', 'eset', 'sophos', 'fortinet', 'gitconvex', 'sourcetree', 'tortoisegit',
  // application frameworks and servers (the error is the application's)
  'gitlab-ci', 'django', 'laravel', 'springboot', 'spring-boot', 'fastapi', 'nestjs', 'nextjs', 'tomcat', 'wildfly', 'jboss', 'weblogic', 'websphere',
];

/** Names of two words, matched as adjacent words. */
const double = ['docker hub', 'github actions', 'gitlab runner', 'azure devops', 'azure pipelines', 'bitbucket pipelines', 'aws codebuild', 'google cloud build', 'docker desktop', 'eclipse che', 'argo workflows', 'argo events', 'nginx plus', 'elastic beanstalk', 'spring boot'];

/** Registries: where an image comes from, which says nothing about whose deployment pulls it. */
const registries = new Set(['harbor', 'nexus', 'artifactory', 'jfrog', 'verdaccio', 'chartmuseum', 'sonatype', 'docker hub']);
/** Whether a named product is a registry (see `registries`). */
export const isRegistry = (name: string): boolean => registries.has(name);

const singles = new Set(single);
const doubles = new Set(double);
/** Words that may start a two-word name, and the shortest and longest names: most words are passed by without a copy. */
const pairStarts = new Set(double.map((d) => d.split(' ')[0]!));
const words = [...single, ...double.flatMap((d) => d.split(' '))];
const shortest = Math.min(...words.map((w) => w.length));
const longest = Math.max(...words.map((w) => w.length));
/** The first two characters of every name, as one number: most words of a paste start otherwise and are never copied. */
const starts = new Set(words.map((w) => w.charCodeAt(0) * 65536 + w.charCodeAt(1)));

/** Whether a character continues a name: letters, digits and the hyphen of `spring-boot`. */
const inName = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45;

/** The other products a lower-cased paste names, at most `max`, read word by word (linear in the text). */
export function namedProducts(lower: string, max = 5): string[] {
  const found: string[] = [];
  let previous = '';
  let start = -1;
  for (let i = 0; i <= lower.length && found.length < max; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : -1;
    if (c >= 0 && inName(c)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const length = i - start;
      // Only a word that could be a name (or start one) is copied and looked up.
      const word = length >= shortest && length <= longest && starts.has(lower.charCodeAt(start) * 65536 + lower.charCodeAt(start + 1)) ? lower.slice(start, i) : '';
      start = -1;
      const pair = previous === '' || word === '' ? '' : `${previous} ${word}`;
      const name = doubles.has(pair) ? pair : singles.has(word) ? word : undefined;
      if (name && !found.includes(name)) found.push(name);
      previous = pairStarts.has(word) ? word : '';
    }
    // Punctuation between words breaks a pair; spaces do not.
    if (c >= 0 && c !== 32) previous = '';
  }
  return found;
}
