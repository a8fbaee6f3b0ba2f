import { defaultPlatformNames } from '../platform-names.js';
import { patterns } from './patterns.js';
import { namedProducts } from './products.js';

/**
 * What a paste is about: the platform (its components and objects by name, or the places of its dashboard
 * that only it has), or something named that is not the platform (another product's image, a user's
 * namespace, pod or StatefulSet). The same Kubernetes message means the platform's remedy only when its
 * subject is the platform.
 */
export interface Subject {
  /** The paste names the platform, one of its components, or a place of its dashboard. */
  readonly platform: boolean;
  /** The paste names the platform only to deny it ("it isn't devtron, it is our own portal"). */
  readonly denied: boolean;
  /** A namespace, pod, StatefulSet, deployment or image that is not the platform's, or another product by name. */
  readonly foreign: readonly string[];
  /** Other products named by the paste (a part of `foreign`). */
  readonly products: readonly string[];
  /** Whether the person deploys or pulls by other means than the platform: a tutorial followed, their own helm install or compose file, a desktop program (OWN_WORKFLOW, DESKTOP). Read when asked. */
  ownWorkflow(): boolean;
  /** Whether the part of the paste read names one of these (lower case, as substrings). */
  mentions(names: readonly string[]): boolean;
  /** Whether the part of the paste read shows an image tagged as a build pipeline tags it (hasBuiltTag). Read when asked. */
  builtImage(): boolean;
}

/** Names that only the platform uses; `devtron` covers its namespaces, secret, images and installer. */
const PLATFORM_NAMES = [
  'devtron',
  'git-sensor',
  'kubelink',
  defaultPlatformNames.databaseStatefulSet,
  defaultPlatformNames.gitSensorClaim,
  // The platform secret's key for the admin password and the installer's version line (platform-facts.md).
  'admin_password',
  'ltag=',
];

/**
 * Places of the platform's dashboard, as the guide names them (sections 1 and 7): a person describing the
 * platform's screens names the platform without its name. Only names no other product's screens use.
 */
const PLATFORM_PLACES = [
  'global config',
  'app details',
  'app detail page',
  'helm apps',
  'chart store',
  'base deployment template',
  'refresh chart',
  'chart sync',
  'clusters & environments',
  'allow insecure connection',
  'discover section',
  // Its build and deploy screens, API path and chart job, as the guide and its users name them.
  'select material',
  'build & deploy',
  'config & secrets',
  '/orchestrator/',
  'chart-sync',
  'gitops module',
  'auto-inject credentials',
  'container registries',
  'chart repositories',
];

/**
 * The person deploying or pulling by other means than the platform: a command of their own where a line or a
 * clause starts (`helm install …`, `kubectl apply …`, `docker pull …`, `minikube start`), or a tutorial followed.
 * Not the platform's installer, which names the platform (read first).
 */
const OWN_WORKFLOW = ['helm install ', 'helm upgrade --install ', 'kubectl apply ', 'kubectl create deployment ', 'kubectl run ', 'docker pull ', 'docker run ', 'docker compose ', 'docker-compose', 'minikube start', 'kind create cluster', 'tutorial'];

/**
 * A program on a person's Windows desktop (its install folder, its own git.exe): the platform's components run
 * in the cluster's Linux containers, so an error printed with these is the desktop program's.
 */
const DESKTOP = ['\\program files\\', '\\appdata\\', 'git.exe'];

/** Whether `text` holds `words` where a line, a command or (for a word) a word starts: after nothing, a space, `$`, `>`, `;`, `&`, `|` or `(`. */
function startsAClause(text: string, words: string): boolean {
  for (let at = text.indexOf(words); at >= 0; at = text.indexOf(words, at + 1)) {
    if (at === 0 || ' \t\n\r$>;&|('.includes(text[at - 1]!)) return true;
  }
  return false;
}

/** Subjects that say nothing about whose problem it is: system namespaces and placeholders. */
const NEUTRAL = new Set(['kube-system', 'default', 'argocd', 'pull', 'name', 'pod', 'the', 'is', 'xxx']);

/** Pastes up to this size are read whole; in longer ones, only around the evidence (linear either way). */
const WHOLE = 8 * 1024;
const AROUND = 1000;
const HEAD = 2048;

/** Reads the subject of a paste; `around` are the offsets of the evidence, for long pastes. */
export function readSubject(text: string, around: readonly number[]): Subject {
  // In a long paste, its start too: the person's own words ("devtron app deploy, namespace devtroncd:") come first.
  // Evidence often starts on the same line twice (two texts of one line): each window is read once.
  const windows = [...new Set(around.slice(0, 4))].map((at) => text.slice(Math.max(0, at - AROUND), at + AROUND));
  const parts = (text.length <= WHOLE ? [text] : [text.slice(0, HEAD), ...windows]).map((p) => p.toLowerCase());
  const mentions = (names: readonly string[]): boolean => parts.some((lower) => names.some((n) => (patterns.count.test(n) ? hasNumber(lower, n) : lower.includes(n))));
  const named = parts.map((lower) => namesPlatform(lower));
  const platform = named.some((n) => n === 'plainly');
  const denied = !platform && named.some((n) => n === 'denied');
  const foreign: string[] = [];
  const products: string[] = [];
  for (const lower of parts) {
    for (const m of lower.matchAll(patterns.namedSubject)) {
      const name = trimPunctuation(m[1]!);
      // The GitOps controller's own objects (argocd-secret, argocd-server-…) may be the platform's.
      if (!NEUTRAL.has(name) && !name.startsWith('argocd-') && !PLATFORM_NAMES.some((n) => name.includes(n)) && foreign.length < 10) foreign.push(name);
    }
    for (const product of namedProducts(lower)) {
      if (!products.includes(product)) products.push(product);
      if (foreign.length < 10 && !foreign.includes(product)) foreign.push(product);
    }
  }
  let own: boolean | undefined;
  const ownWorkflow = (): boolean => (own ??= parts.some((lower) => OWN_WORKFLOW.some((command) => startsAClause(lower, command)) || DESKTOP.some((place) => lower.includes(place))));
  let built: boolean | undefined;
  const builtImage = (): boolean => (built ??= parts.some(hasBuiltTag));
  return { platform, denied, foreign, products, ownWorkflow, mentions, builtImage };
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102);
/** A character a tag may go on with (the lower-cased text's letters, digits, `.`, `_`, `-`). */
const inTag = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === 45;
/** A short commit hash is at least this long (git's default abbreviation) and at most this long here. */
const HASH_MIN = 7;
const HASH_MAX = 12;

/**
 * Whether `lower` holds an image tag as a build pipeline writes it: after `:`, a commit's short hash (7 to 12 hex
 * characters, a letter among them: not a time or a port) and one or two build numbers, and nothing more of the tag.
 * The platform's CI tags `<8 hex>-<pipeline id>-<build id>` (the orchestrator's buildImageTag); a third party's
 * release (`:v2.1.0`, `:2.2.22`, `:0.0.1-SNAPSHOT`) is not such a tag. Each character is looked at a bounded number of
 * times: a hash starts right after its `:` and its numbers right after the hash.
 */
export function hasBuiltTag(lower: string): boolean {
  for (let colon = lower.indexOf(':'); colon >= 0; colon = lower.indexOf(':', colon + 1)) {
    let at = colon + 1;
    let letter = false;
    for (; at < lower.length && at - colon <= HASH_MAX + 1 && isHex(lower.charCodeAt(at)); at++) if (!isDigit(lower.charCodeAt(at))) letter = true;
    const hash = at - colon - 1;
    if (hash < HASH_MIN || hash > HASH_MAX || !letter) continue;
    let numbers = 0;
    while (numbers < 2 && lower.charCodeAt(at) === 45 && isDigit(lower.charCodeAt(at + 1))) {
      at++;
      while (isDigit(lower.charCodeAt(at))) at++;
      numbers++;
    }
    if (numbers > 0 && !inTag(lower.charCodeAt(at))) return true;
  }
  return false;
}

/** Whether `lower` holds the number `n` with no letter or digit either side (not inside a pod's hash, a port or a time). */
function hasNumber(lower: string, n: string): boolean {
  // A letter or digit of the lower-cased text (NaN outside it is neither).
  const alnum = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  for (let at = lower.indexOf(n); at >= 0; at = lower.indexOf(n, at + 1)) {
    if (!alnum(lower.charCodeAt(at - 1)) && !alnum(lower.charCodeAt(at + n.length))) return true;
  }
  return false;
}

/** Looked at before a name for a denial ("not devtron", "nothing to do with devtron"). */
const DENIAL_REACH = 24;
/** Looked at before a denied name for the question it may start instead ("why doesn't devtron …"). */
const QUESTION_REACH = 48;

/** How a lower-cased text names the platform: plainly (one plain mention is enough), only to deny it, or not at all. */
function namesPlatform(lower: string): 'plainly' | 'denied' | 'no' {
  let deniedOnly = false;
  for (const name of [...PLATFORM_NAMES, ...PLATFORM_PLACES]) {
    for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + name.length)) {
      if (!denied(lower, at)) return 'plainly';
      deniedOnly = true;
    }
  }
  return deniedOnly ? 'denied' : 'no';
}

/** Whether the name at `at` follows a denial, and not a question's contraction ("why doesn't devtron"). */
function denied(lower: string, at: number): boolean {
  if (!patterns.deniedBefore.test(lower.slice(Math.max(0, at - DENIAL_REACH), at))) return false;
  const from = Math.max(0, at - QUESTION_REACH);
  // A window cut inside the text does not start a clause: a word character stands for what was cut.
  return !patterns.askedBefore.test(`${from > 0 ? 'x' : ''}${lower.slice(from, at)}`);
}

/** The name without the punctuation of the sentence it ends (a loop, not a pattern: see patterns.ts). */
function trimPunctuation(name: string): string {
  let end = name.length;
  while (end > 0 && '.:,/'.includes(name[end - 1]!)) end--;
  return name.slice(0, end);
}
