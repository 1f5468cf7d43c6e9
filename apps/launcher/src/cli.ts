/**
 * The administration CLI of the server (apps/server/src/cli.ts, every command and option) with the
 * simulator's demoFleet, for `demo-fleet`: registers the demo devices so the simulator can run as its own
 * process. `node --import tsx apps/launcher/src/cli.ts <command> ...`
 */
import { runCli } from '@nest/server/cli';
import { demoFleet } from '@nest/simulator';

process.exitCode = await runCli(process.argv.slice(2), process.env, undefined, {}, { demoFleet });
