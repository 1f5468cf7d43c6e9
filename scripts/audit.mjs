// Dependency audit: fails when a production dependency (any workspace's `dependencies`, transitively) has a
// known high or critical advisory, and prints each one.
//
// It asks the registry's bulk advisory endpoint directly (the one `npm audit` uses) instead of running
// `npm audit`, so that an unreachable advisory service is told apart from a finding: `npm audit` exits 1
// for both. When the service cannot be asked (network error, or an answer that is not an advisory list,
// e.g. a registry mirror answering 405 to POST) the script says so on stderr and exits 0, unless
// AUDIT_REQUIRED=1 (then 2): a mirror without the advisory service would otherwise fail every run and a
// gate that is always red gets ignored. Set AUDIT_REQUIRED=1 where the service is known to be reachable.
//
// AUDIT_REGISTRY overrides the registry (default: `npm config get registry`); the tests point it at a
// local server.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const FAILING = new Set(['high', 'critical']);
const ENDPOINT = '-/npm/v1/security/advisories/bulk';
const required = process.env.AUDIT_REQUIRED === '1';

function npm(args) {
  return execFileSync('npm', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** name -> set of installed versions, from the production dependency tree of the root and every workspace. */
function productionPackages() {
  let tree;
  try {
    tree = JSON.parse(npm(['ls', '--omit=dev', '--all', '--json']));
  } catch (e) {
    // npm ls exits 1 on an extraneous or invalid package but still prints the tree.
    tree = JSON.parse(e.stdout || '{}');
  }
  const found = new Map();
  // The workspaces (linked from the root); one that another depends on is listed there again without its link.
  const workspaces = new Set(Object.entries(tree.dependencies ?? {}).filter(([, n]) => n.resolved?.startsWith('file:')).map(([name]) => name));
  const walk = (deps) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (!node.version || node.resolved?.startsWith('file:') || workspaces.has(name)) {
        walk(node.dependencies); // a workspace: audit what it depends on, not itself
        continue;
      }
      const versions = found.get(name) ?? new Set();
      if (versions.has(node.version) && !node.dependencies) continue;
      versions.add(node.version);
      found.set(name, versions);
      walk(node.dependencies);
    }
  };
  walk(tree.dependencies);
  return found;
}

function loadSemver() {
  try {
    return createRequire(import.meta.url)('semver');
  } catch {
    return null; // without it every advisory the service returns is reported (the service already filters by version)
  }
}

const registry = (process.env.AUDIT_REGISTRY || npm(['config', 'get', 'registry']).trim()).replace(/\/?$/, '/');
const packages = productionPackages();
const body = Object.fromEntries([...packages].map(([name, versions]) => [name, [...versions]]));

let advisories;
try {
  const res = await fetch(registry + ENDPOINT, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
  advisories = await res.json();
  if (typeof advisories !== 'object' || advisories === null || Array.isArray(advisories)) throw new Error('the answer is not an advisory list');
} catch (e) {
  console.error(`dependency audit: the advisory service at ${registry}${ENDPOINT} could not be asked (${e.message}).`);
  console.error(`dependency audit: ${packages.size} production packages were NOT checked for known advisories.`);
  process.exit(required ? 2 : 0);
}

const semver = loadSemver();
const findings = [];
for (const [name, list] of Object.entries(advisories)) {
  for (const adv of Array.isArray(list) ? list : []) {
    const affected = [...(packages.get(name) ?? [])].filter(
      (v) => !semver || !adv.vulnerable_versions || semver.satisfies(v, adv.vulnerable_versions),
    );
    if (affected.length === 0) continue;
    findings.push({ name, versions: affected, severity: adv.severity, title: adv.title, url: adv.url, range: adv.vulnerable_versions });
  }
}
const failing = findings.filter((f) => FAILING.has(f.severity));
for (const f of findings) {
  const line = `${f.severity.padEnd(8)} ${f.name}@${f.versions.join(',')} (vulnerable ${f.range}): ${f.title} ${f.url ?? ''}`;
  (FAILING.has(f.severity) ? console.error : console.log)(line);
}
console.log(
  `dependency audit: ${packages.size} production packages checked, ${findings.length} advisories, ${failing.length} high or critical`,
);
process.exit(failing.length > 0 ? 1 : 0);
