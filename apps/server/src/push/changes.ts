import { EventEmitter } from 'node:events';
import type { DataTopic } from '@nest/contracts';
import type { ClusterBus } from './bus.js';

/**
 * Notice that a company's data changed (a sortie began or ended, a result arrived, an alarm was raised or
 * processed, a timed task ran). Modules call `changed`; the notice goes to every server instance through
 * the cluster bus, and each instance's push hub turns the notices into throttled 380 DATA_CHANGED
 * messages so open data screens refetch their figures, whichever instance their browser is connected to.
 */
export class DataChanges extends EventEmitter<{ changed: [companyId: string, topic: DataTopic] }> {
  constructor(private readonly bus: ClusterBus | null = null) {
    super();
    bus?.on('changed', ({ companyId, topic }) => this.emit('changed', companyId, topic));
  }

  changed(companyId: string, topic: DataTopic): void {
    if (this.bus) this.bus.send('changed', { companyId, topic });
    else this.emit('changed', companyId, topic);
  }
}
