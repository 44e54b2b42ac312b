/**
 * Refuses a Node.js the service does not support, in one line and with exit code 1, before any
 * native module loads: on Node 20, better-sqlite3 ends the process with a bare "Segmentation fault"
 * (exit 139) and nothing else. Every entry point imports this module first (the service, the key
 * tool, the document tool, the configuration TypeORM's CLI reads), on SQLite and MySQL alike.
 */

/** package.json's engines.node, which a unit test keeps equal: caret ranges, one per line of Node. */
export const SUPPORTED_NODE = '^22.22.3 || ^24.15.0 || ^26.0.0';

// Our own, not semver: that is a devDependency, and this runs before anything else is loaded.
/** Whether `version` (as in process.versions.node) is within SUPPORTED_NODE. */
export function isSupportedNode(version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number);
  return SUPPORTED_NODE.split('||').some((range) => {
    const [least, leastMinor, leastPatch] = range.trim().replace(/^\^/, '').split('.').map(Number);
    return major === least && (minor > leastMinor || (minor === leastMinor && patch >= leastPatch));
  });
}

if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(
    `petstore: Node ${process.versions.node} is not supported (${SUPPORTED_NODE}); ` +
      'in a checkout, `. scripts/use-node.sh` puts a supported Node (24) first on PATH\n',
  );
  process.exit(1);
}
