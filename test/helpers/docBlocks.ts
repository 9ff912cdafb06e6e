/**
 * The marked shell blocks (`<!-- readme-sandbox: name -->`) that test/cli/readmeSandbox.test.ts
 * (and test/cli/webhooksWalkthrough.test.ts) runs, by document: test/docs/shellBlocks.test.ts refuses a marked block that is not listed here.
 */
export const SANDBOX_BLOCKS: Readonly<Record<string, readonly string[]>> = {
  'README.md': ['walkthrough-simulator', 'events', 'real'],
  'docs/api.md': ['simulator', 'api'],
  'docs/webhooks.md': ['webhooks-listen'],
};
