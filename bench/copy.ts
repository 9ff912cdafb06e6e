/** The bench's floor is the same COPY the engine uses for new rows: `src/sync/copy.ts`. */
export { copyRows } from '../src/sync/copy.ts';
