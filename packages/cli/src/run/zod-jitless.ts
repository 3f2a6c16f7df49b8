import { config } from 'zod';

// A headless run is a short process that parses a few dozen events: zod's compiled fast paths
// (generated with `new Function` on first use, per object schema) cost it more CPU to build than
// they save. Imported first by run-command.ts, before @tandem/shared builds its schemas, since
// zod reads the setting when a schema is created.
config({ jitless: true });
