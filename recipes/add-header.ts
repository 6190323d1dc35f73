// A module recipe: `transform` steps are functions, which only .js/.mjs/.ts recipes can hold.
// Adds an SPDX license header to every TypeScript source that lacks one.
import { defineRecipe } from 'scion-codemod';

const HEADER = '// SPDX-License-Identifier: MIT\n';

export default defineRecipe({
  name: 'add-header',
  description: 'Add an SPDX license header to TypeScript sources',
  files: { include: ['packages/*/src/**/*.ts'] },
  steps: [
    {
      // Return the new content, or undefined to leave the file as it is.
      transform: ({ content }) => (content.startsWith('// SPDX-License-Identifier:') ? undefined : HEADER + content),
    },
  ],
});
