import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** The running server the demo fleet joins (main.ts RunningServer). */
export interface DemoServer {
  app: FastifyInstance;
  config: Config;
  /** The HTTP port it listens on: the simulated devices upload their media there, on loopback. */
  port: number;
}
