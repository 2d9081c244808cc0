// After `npm run build`: makes this machine's PGlite data-directory template once (see
// libs/event-store/src/sql/pglite-template.ts), so the first `npm start` on an empty DATA_DIR
// unpacks it instead of running initdb.
import { existsSync } from 'node:fs';
import { makePgliteTemplate, pgliteTemplatePath } from '@transfergate/event-store';

const path = pgliteTemplatePath();
if (existsSync(path)) {
  console.log(`PGlite template: ${path} (kept)`);
} else {
  const started = Date.now();
  await makePgliteTemplate(path);
  console.log(`PGlite template: ${path} (made in ${Date.now() - started} ms)`);
}
