/**
 * The product as `npm start` runs it: the server and, with SIMULATOR=on (the default), the demo fleet of the
 * simulator in the same process. The only app that imports other apps: the server never imports the
 * simulator, and a deployment with real devices (SIMULATOR=off) may run the server alone
 * (apps/server/src/main.ts); this launcher then starts just the server.
 *
 * With the simulator: the demo devices are registered before the app is built (so its device directory and
 * the broker know them), then, once the server listens and has printed its start-up lines, the fleet
 * starts on the server's broker ("Simulated fleet: ..."), then demo mode (demo plans, missions, weather,
 * recordings). SIGINT / SIGTERM stop demo mode, the fleet, then the server.
 */
import { demoDjiDocks, demoDjiLogins, demoFleetOptions, djiFleetLine, ensureDemoDevices, ensureDemoDjiDocks, fleetLine, startDemoMode } from '@nest/server/demo';
import { runProgram, startServer } from '@nest/server/main';
import { demoFleet, startDjiDock, startFleet, type DjiDock, type Fleet } from '@nest/simulator';

// The emulated DJI docks upload with the AWS SDK, which prints a notice about Node versions it will stop
// supporting; that concerns the demo's emulator, not the operator, so the launcher keeps it out of the log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

await runProgram(async (config) => {
  if (!config.simulator) {
    const server = await startServer(config);
    return { stop: () => server.close() };
  }
  const specs = demoFleet(config.simCenter, { nests: config.simNests, drones: config.simDrones });
  const djiSpecs = demoDjiDocks(config.simCenter, config.simDjiDocks);
  const server = await startServer(config, {
    prepare: async (db) => {
      await ensureDemoDevices(db, specs);
      await ensureDemoDjiDocks(db, djiSpecs);
    },
  });
  let fleet: Fleet | null = null;
  try {
    fleet = await startFleet(demoFleetOptions(server, specs));
    console.log(fleetLine(config));
  } catch (err) {
    console.error(`Simulated fleet not started: ${err instanceof Error ? err.message : String(err)}`);
  }
  // The emulated DJI docks log in as a real dock would, with the credentials the CLI would print.
  const docks: DjiDock[] = [];
  try {
    for (const login of await demoDjiLogins(server, djiSpecs)) docks.push(await startDjiDock(login));
    if (docks.length > 0) console.log(djiFleetLine(djiSpecs.filter((d) => docks.some((k) => k.dockSn === d.sn))));
  } catch (err) {
    console.error(`Emulated DJI docks not started: ${err instanceof Error ? err.message : String(err)}`);
  }
  const running = djiSpecs.filter((d) => docks.some((k) => k.dockSn === d.sn));
  const demo = await startDemoMode(server, specs, fleet, running);
  return {
    async stop() {
      await demo.stop().catch(() => undefined);
      for (const dock of docks) await dock.stop().catch(() => undefined);
      await fleet?.stop().catch(() => undefined);
      await server.close();
    },
  };
});
